import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LazyRequestLogger, loggerOptions } from './logger.ts';

function parent(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(loggerOptions(level), { write: (l: string) => void lines.push(JSON.parse(l)) });
  return { logger, lines };
}
const lazy = (p: ReturnType<typeof parent>, options: { level?: string } = {}) =>
  new LazyRequestLogger(p.logger, { reqId: 'req-1' }, options);

describe('LazyRequestLogger', () => {
  it('builds nothing for lines below the level and writes enabled ones with the request id', () => {
    const p = parent('warn');
    const log = lazy(p);
    log.info({ a: 1 }, 'quiet');
    log.debug('quieter');
    expect(log.built).toBe(false);
    expect(p.lines).toEqual([]);
    log.warn({ phone: '13800138000' }, 'loud');
    expect(log.built).toBe(true);
    expect(p.lines).toHaveLength(1);
    expect(p.lines[0]).toMatchObject({ reqId: 'req-1', msg: 'loud', level: 40, phone: '[REDACTED]' });
    // Once built, every call goes to the child (pino decides).
    log.info('still quiet');
    log.error(new Error('boom'), 'failed');
    expect(p.lines.map((l) => l.msg)).toEqual(['loud', 'failed']);
    expect(p.lines[1]).toMatchObject({ reqId: 'req-1', level: 50 });
  });

  it("follows the route's level, and the parent's level when it changes", () => {
    const p = parent('warn');
    const route = lazy(p, { level: 'debug' });
    expect(route.level).toBe('debug');
    route.debug('route detail');
    expect(p.lines).toMatchObject([{ reqId: 'req-1', msg: 'route detail', level: 20 }]);

    const quiet = lazy(p, { level: 'error' });
    quiet.warn('below the route level');
    expect(quiet.built).toBe(false);

    const inherits = lazy(p);
    p.logger.level = 'info';
    inherits.info('now enabled');
    expect(p.lines.at(-1)).toMatchObject({ reqId: 'req-1', msg: 'now enabled' });

    p.logger.level = 'silent';
    const silent = lazy(p);
    silent.fatal('nothing at silent');
    expect(silent.built).toBe(false);
  });

  it("gives children that keep the request's bindings", () => {
    const p = parent('info');
    const log = lazy(p);
    log.child({ part: 'delivery' }).info('from a child');
    expect(p.lines).toMatchObject([{ reqId: 'req-1', part: 'delivery', msg: 'from a child' }]);
  });
});
