import { defineConfig } from 'vitest/config';

/** Browser journeys: real server + Debian's Chromium through playwright-core. Needs `npm run build:ui`. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 90_000,
    // beforeAll starts a server on a fresh embedded database (up to 180 s on a busy machine).
    hookTimeout: 200_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
