import { defineConfig } from 'vitest/config';

const include = [
  'engine/src/**/*.test.ts',
  'contract/src/**/*.test.ts',
  'api/src/**/*.test.ts',
  'web/src/**/*.test.ts',
  'web/src/**/*.test.tsx',
  'e2e/**/*.test.ts',
];
const timeouts = { testTimeout: 60_000, hookTimeout: 120_000 };
const postgres = process.env.TEST_DATABASE_URL;

/**
 * Every test runs on embedded PGlite. With TEST_DATABASE_URL set (as .ci/run sets it), the API suite runs a second
 * time on that PostgreSQL server, so both databases pass the same tests in one `npm test`.
 */
export default defineConfig({
  test: {
    ...timeouts,
    projects: [
      { test: { name: 'pglite', include, ...timeouts, env: { TEST_DATABASE_URL: '' } } },
      ...(postgres
        ? [
            {
              test: {
                name: 'postgres',
                include: ['api/src/**/*.test.ts'],
                ...timeouts,
                env: { TEST_DATABASE_URL: postgres },
              },
            },
          ]
        : []),
    ],
  },
});
