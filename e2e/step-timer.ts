/**
 * Issue 44.13: how long a step waited beyond its work. A step runs from an action (a click, opening a
 * link) to the next page's address; its work is the network it waits for (every request of the page
 * from its start to its answer: API calls, the next page's code). What is left — time when nothing was
 * loading — is the waiting the H5 adds itself (navigation delays, minimum animations). Reporting beacons
 * (/api/report/…, exposure and vitals) are nobody's work and are left out.
 */
import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';

const NOT_WORK = /\/api\/(report\/|reportProductExposure|reportAdChannelClick)/;

/** Spec §9's navigation delay: what a step may add to its work (issue 44.13: "work plus 0.5 s"). */
export const NAVIGATION_DELAY_MS = 500;
/** Rendering and script between requests on a shared two-core machine: the test's slack. */
export const SLACK_MS = 400;

export interface StepWait {
  /** From the action to the next page's address. */
  totalMs: number;
  /** Time within it with at least one request of the step in flight. */
  workMs: number;
  /** totalMs − workMs: what the H5 added. */
  waitMs: number;
  /** The requests of the step (path, start and answer relative to the action). */
  requests: string[];
}

export interface StepTimer {
  /** Marks the action; answers its time. */
  mark(): number;
  /** When the first request to a path matching `path` started (waits for it). */
  requestStart(path: RegExp, timeoutMs?: number): Promise<number>;
  /** The step from `from` (a mark) to the first address matching `to` at or after it. */
  step(from: number, to: RegExp, timeoutMs?: number): Promise<StepWait>;
}

/** Starts recording `page`'s requests and main-frame addresses (call before the step's action). */
export function stepTimer(page: Page): StepTimer {
  const started = new Map<Request, number>();
  const spans: { path: string; from: number; to: number }[] = [];
  const addresses: { url: string; at: number }[] = [];
  const starts: { path: string; at: number }[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('data:')) starts.push({ path: new URL(r.url()).pathname, at: Date.now() });
    if (!NOT_WORK.test(r.url()) && !r.url().startsWith('data:')) started.set(r, Date.now());
  });
  const finished = (r: Request) => {
    const from = started.get(r);
    if (from === undefined) return;
    started.delete(r);
    spans.push({ path: new URL(r.url()).pathname, from, to: Date.now() });
  };
  // The answer's headers, for a request whose 'requestfinished' never comes (Chromium does not always
  // report it for an upload's response): counted up to the answer, not to the arrival.
  const answered = new Map<Request, number>();
  page.on('response', (r) => {
    if (started.has(r.request())) answered.set(r.request(), Date.now());
  });
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) addresses.push({ url: f.url(), at: Date.now() });
  });

  return {
    mark: () => Date.now(),
    async requestStart(path, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = starts.find((r) => path.test(r.path));
        if (hit) return hit.at;
        if (Date.now() > deadline) throw new Error(`no request to ${path} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async step(from, to, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let arrival = addresses.find((a) => a.at >= from && to.test(a.url));
      while (!arrival) {
        if (Date.now() > deadline) throw new Error(`no address matching ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
        arrival = addresses.find((a) => a.at >= from && to.test(a.url));
      }
      const end = arrival.at;
      // Requests still in flight at the arrival count up to it.
      const all = [
        ...spans,
        ...[...started].map(([r, at]) => ({
          path: new URL(r.url()).pathname,
          from: at,
          to: answered.get(r) ?? end,
        })),
      ];
      const clipped = all
        .map((s) => ({ ...s, from: Math.max(s.from, from), to: Math.min(s.to, end) }))
        .filter((s) => s.to > s.from)
        .sort((a, b) => a.from - b.from);
      let workMs = 0;
      let cursor = from;
      for (const s of clipped) {
        const start = Math.max(s.from, cursor);
        if (s.to > start) {
          workMs += s.to - start;
          cursor = s.to;
        }
      }
      const totalMs = end - from;
      return {
        totalMs,
        workMs,
        waitMs: totalMs - workMs,
        requests: clipped.map((s) => `${s.path} ${s.from - from}–${s.to - from}`),
      };
    },
  };
}

/** The step waited no more than its work plus the navigation delay (and the slack); logs its timing. */
export function expectWaitWithinDelay(name: string, step: StepWait): void {
  console.log(
    `${name}: total ${step.totalMs} ms, work ${step.workMs} ms, wait ${step.waitMs} ms\n${step.requests.join('\n')}`,
  );
  expect(step.waitMs, `${name}\n${step.requests.join('\n')}`).toBeLessThanOrEqual(
    NAVIGATION_DELAY_MS + SLACK_MS,
  );
}
