import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../src/modules/delivery/signing.ts';

/**
 * What the local partner does with one request: answer with a status; hang for `ms`, then answer;
 * or decide `holdStatus` (a 2xx takes the lead) and never answer, until the caller gives up and
 * closes the connection — a lender slower than any timeout, without racing a clock.
 */
export type PartnerStep =
  | { status: number }
  | { hangMs: number; thenStatus: number }
  | { holdStatus: number };

export interface ReceivedLead {
  key: string;
  body: Record<string, unknown>;
  signatureOk: boolean;
  at: number;
}

/** How the partner answers a notice (withdrawal / deletion request), per attempt of that notice. */
export type NoticeStep = { status: number; body?: unknown };

/**
 * A lender's lead API for tests: checks each request's HMAC with the partner's secret, de-duplicates
 * on the idempotency key like a real partner, and follows a script per lead (fail, time out, succeed).
 */
export class LocalPartner {
  readonly requests: ReceivedLead[] = [];
  /** Leads the partner accepted (each key once). */
  readonly accepted = new Map<string, Record<string, unknown>>();
  /** Keys accepted again (a partner that did not de-duplicate would have taken these twice). */
  readonly duplicates: string[] = [];
  /** Keys of held requests (`holdStatus`) whose caller gave up (closed the connection), in order. */
  readonly abandoned: string[] = [];
  /** Notices received (consent.withdrawn, data.deletion_requested), every attempt. */
  readonly notices: ReceivedLead[] = [];
  /** Answer to a notice: 200 by default (a deletion then stays unconfirmed until a callback). */
  noticeScript: (body: Record<string, unknown>, attempt: number) => NoticeStep = () => ({ status: 200 });
  private server: Server | null = null;
  private seen = new Map<string, number>();

  constructor(
    private readonly secretOf: (path: string) => string,
    /** How the partner answers a lead, per attempt of that lead (a test may change it). */
    public script: (attemptForKey: number) => PartnerStep = () => ({ status: 200 }),
  ) {}

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, body, delay, hold, key }) => {
          if (hold) {
            res.on('close', () => this.abandoned.push(key));
            return;
          }
          setTimeout(() => {
            res.writeHead(status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(body));
          }, delay);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
    // Idle connections are closed by the caller, never by the lender first: a lender closing one
    // as the caller reuses it drops that request unread (nodejs/undici#3141), more likely when a
    // loaded machine stalls both timers.
    this.server.keepAliveTimeout = 120_000;
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  private async handle(
    req: IncomingMessage,
  ): Promise<{ status: number; body: unknown; delay: number; hold?: boolean; key: string }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    if (path.endsWith('/dup-check')) return { status: 200, body: { exists: false }, delay: 0, key: '' };
    const key = String(req.headers['idempotency-key'] ?? '');
    const body = JSON.parse(raw) as Record<string, unknown>;
    const signatureOk =
      verifySignature(
        this.secretOf(path),
        req.headers['x-lm-timestamp'] as string | undefined,
        req.headers['x-lm-signature'] as string | undefined,
        raw,
        Date.now(),
      ) === null;
    if (body.type === 'consent.withdrawn' || body.type === 'data.deletion_requested') {
      this.notices.push({ key, body, signatureOk, at: Date.now() });
      const n = this.notices.filter((x) => x.key === key).length;
      if (!signatureOk) return { status: 401, body: { error: 'bad signature' }, delay: 0, key };
      const step = this.noticeScript(body, n);
      return { status: step.status, body: step.body ?? { received: true }, delay: 0, key };
    }
    this.requests.push({ key, body, signatureOk, at: Date.now() });
    const attempt = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, attempt);
    if (!signatureOk) return { status: 401, body: { error: 'bad signature' }, delay: 0, key };
    const step = this.script(attempt);
    const status = 'status' in step ? step.status : 'holdStatus' in step ? step.holdStatus : step.thenStatus;
    const delay = 'hangMs' in step ? step.hangMs : 0;
    const hold = 'holdStatus' in step;
    if (status >= 200 && status < 300) {
      // A real partner commits the lead when it decides to answer 2xx — even if the caller has
      // given up waiting by then.
      if (this.accepted.has(key)) {
        this.duplicates.push(key);
        return { status: 200, body: { id: `P-${key.slice(0, 8)}`, duplicate: true }, delay, hold, key };
      }
      this.accepted.set(key, body);
      return { status, body: { id: `P-${key.slice(0, 8)}` }, delay, hold, key };
    }
    return { status, body: { error: 'try later' }, delay, hold, key };
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}
