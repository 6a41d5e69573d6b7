import { describe, expect, it } from 'vitest';
import { appError } from './errors.ts';
import { limitName, loginOutcome, Metrics, UNMATCHED_ROUTE } from './metrics.ts';

describe('limitName', () => {
  it('keeps the limit and drops whom it counts', () => {
    const cases: [string, string][] = [
      ['click:ip:203.0.113.7', 'click:ip'],
      ['click:ip:2001:db8:abcd::1', 'click:ip'],
      ['click:ip:abcd:ef::1', 'click:ip'],
      ['match:user:42', 'match:user'],
      ['sms:device:3q2-7wEjcPb_x9YzAbCdEfGhIjKlMnOpQrStUvWxYz0', 'sms:device'],
      ['sms:phone:minute:login:Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg', 'sms:phone:minute:login'],
      ['sms:phone:hour:Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg', 'sms:phone:hour'],
      ['sms:phone:day:2026-11-26:Zm9vYmFyYmF6cXV4', 'sms:phone:day'],
      ['staff:login:ip:10.0.0.1', 'staff:login:ip'],
      ['staff:pwfail:Zm9vYmFy:3', 'staff:pwfail'],
      ['verify:fail:Zm9vYmFy', 'verify:fail'],
      ['upload-policy:u12', 'upload-policy'],
      ['report:userInfoLog:user:9', 'report'],
      ['report:click:ip:1.2.3.4', 'report:click:ip'],
      ['rum:dev:abcdefghijklmnopqrstuvwxyzabcdefghijk', 'rum:dev'],
      ['admin:reveal:staff:3', 'admin:reveal:staff'],
      ['12345', 'other'],
    ];
    for (const [key, name] of cases) expect(limitName(key), key).toBe(name);
  });

  it('never lets a lower-case address segment through after the subject', () => {
    expect(limitName('lookup:ip:fe:ab:cd:ef')).toBe('lookup:ip');
  });
});

describe('Metrics', () => {
  it('keeps its own registry per instance', async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.logins.inc({ kind: 'user', outcome: 'success' });
    a.httpDuration.observe({ method: 'GET', route: UNMATCHED_ROUTE, status: 404 }, 0.002);
    const textA = await a.registry.metrics();
    const textB = await b.registry.metrics();
    expect(textA).toContain('lm_logins_total{kind="user",outcome="success"} 1');
    expect(textA).toContain(
      'lm_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1',
    );
    expect(textB).toContain('# TYPE lm_logins_total counter');
    expect(textB).not.toContain('outcome="success"');
    // No process metrics until asked for (tests build many apps).
    expect(textA).not.toContain('process_cpu_user_seconds_total');
    a.enableProcessMetrics();
    expect(await a.registry.metrics()).toContain('process_cpu_user_seconds_total');
  });

  it('reads the queue once per scrape for both gauges', async () => {
    const m = new Metrics();
    let reads = 0;
    m.queueProbe = async () => {
      reads++;
      return { depth: 3, oldestAgeSeconds: 42.5 };
    };
    const text = await m.registry.metrics();
    expect(text).toContain('lm_delivery_queue_depth 3');
    expect(text).toContain('lm_delivery_queue_oldest_age_seconds 42.5');
    expect(reads).toBe(1);
    await new Promise((r) => setImmediate(r));
    await m.registry.metrics();
    expect(reads).toBe(2);
  });

  it('observes requests by route template, method and status', async () => {
    const m = new Metrics();
    const route = '/api/products/:id';
    m.httpDuration.observe({ method: 'GET', route, status: 200 }, 0.001);
    m.httpDuration.observe({ method: 'GET', route, status: 200 }, 0.03);
    m.httpDuration.observe({ method: 'GET', route, status: 404 }, 0.001);
    m.httpDuration.observe({ method: 'HEAD', route, status: 200 }, 0.001);
    const text = await m.registry.metrics();
    const at = (labels: string) =>
      text.match(new RegExp(`lm_http_request_duration_seconds_count\\{${labels}\\} (\\d+)`))?.[1];
    expect(at('method="GET",route="/api/products/:id",status="200"')).toBe('2');
    expect(at('method="GET",route="/api/products/:id",status="404"')).toBe('1');
    expect(at('method="HEAD",route="/api/products/:id",status="200"')).toBe('1');
    expect(text).toContain(
      'lm_http_request_duration_seconds_bucket{le="0.025",method="GET",route="/api/products/:id",status="200"} 1',
    );
  });

  it('counts refusals by limit and tells login outcomes apart', async () => {
    const m = new Metrics();
    m.refused('click:ip:1.2.3.4');
    m.refused('click:ip:5.6.7.8');
    expect(await m.registry.metrics()).toContain('lm_rate_limit_refusals_total{limit="click:ip"} 2');
    expect(loginOutcome(appError('RATE_LIMITED'))).toBe('refused');
    expect(loginOutcome(appError('LOGIN_FAILED'))).toBe('failure');
    expect(loginOutcome(new Error('boom'))).toBe('error');
  });
});
