import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launch } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

export interface Harness {
  /** The real server on a fresh data dir (set before the file's tests run). */
  server: RunningServer;
  /** Chromium (set before the file's tests run). */
  browser: Browser;
}

/**
 * Registers the file's server and browser: started before its tests (hooks registered after this
 * run after it, so they can use both), stopped after them.
 */
export function useServerAndBrowser(env: Record<string, string> = {}): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.server = await startServer(env);
    harness.browser = await launch();
  });
  afterAll(async () => {
    await harness.browser?.close();
    await harness.server?.stop();
  });
  return harness;
}
