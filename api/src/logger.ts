export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Plain console logging; request bodies, tokens and money never reach it. */
export function consoleLogger(level: 'silent' | 'error' | 'info'): Logger {
  return {
    info: (message) => {
      if (level === 'info') console.log(message);
    },
    error: (message, error) => {
      if (level === 'silent') return;
      console.error(message, error instanceof Error ? (error.stack ?? error.message) : (error ?? ''));
    },
  };
}
