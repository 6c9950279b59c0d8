/** Runtime configuration read from `window.TOPLINE_CONFIG` (set by /config.js), with safe defaults. */
export interface ExternalLinks {
  knowledge: string;
  help: string;
  feedback: string;
  database: string;
  blog: string;
  social: string;
}

export interface RuntimeConfig {
  demoBookingUrl: string;
  contactUrl: string;
  googleClientId: string;
  marketingSiteJa: string;
  marketingSiteEn: string;
  links: ExternalLinks;
}

declare global {
  interface Window {
    TOPLINE_CONFIG?: Partial<RuntimeConfig>;
  }
}

const defaults: RuntimeConfig = {
  demoBookingUrl: 'https://calendar.example.com/topline/demo',
  contactUrl: 'mailto:hello@topline.example',
  googleClientId: '',
  marketingSiteJa: '',
  marketingSiteEn: '',
  links: {
    knowledge: 'https://docs.topline.example/knowledge',
    help: 'https://docs.topline.example/tutorial',
    feedback: 'https://feedback.topline.example',
    database: 'https://db.topline.example',
    blog: 'https://blog.topline.example',
    social: 'https://x.com/topline',
  },
};

export function runtimeConfig(): RuntimeConfig {
  const given = typeof window === 'undefined' ? undefined : window.TOPLINE_CONFIG;
  return { ...defaults, ...given, links: { ...defaults.links, ...given?.links } };
}
