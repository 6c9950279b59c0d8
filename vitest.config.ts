import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engine/src/**/*.test.ts', 'api/src/**/*.test.ts', 'web/src/**/*.test.ts', 'web/src/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
