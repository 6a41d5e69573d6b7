import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests under apps/server/test/pg need PostgreSQL; they run when TEST_DATABASE_URL is set (.ci/run).
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    // Guards against a hang, not measurements: on 2 cores shared with other work (issue 19.4) an
    // app's setup (PGlite, migrations) alone took over 60 s. Tests wait on events, not on these.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/server/test/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', ...(withPostgres ? [] : ['apps/server/test/pg/**'])],
        },
      },
      {
        extends: true,
        // Pure logic of the H5 (decision rules, channel resolution …); `@/` as in apps/web.
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
        test: { name: 'web', include: ['apps/web/src/**/*.test.ts', 'apps/web/build/**/*.test.ts'] },
      },
      {
        extends: true,
        // Pure logic of the console; `@/` as in apps/admin.
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/admin/src', import.meta.url)) } },
        test: { name: 'admin', include: ['apps/admin/src/**/*.test.ts'] },
      },
    ],
  },
});
