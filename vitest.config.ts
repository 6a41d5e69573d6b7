import { defineConfig } from 'vitest/config';

// Tests under apps/server/test/pg need PostgreSQL; they run when TEST_DATABASE_URL is set (.ci/run).
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      '**/dist/**',
      'e2e/**',
      ...(withPostgres ? [] : ['apps/server/test/pg/**']),
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
