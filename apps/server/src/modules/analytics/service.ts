import { ANALYTICS_SOURCE } from '@lm/shared/channel';
import type { ReportEventBody } from '@lm/shared/schemas/channel';
import { shanghaiDate } from '@lm/shared/time';
import type { Limiter } from '../limits/limiter.ts';
import type { AnalyticsRepository } from './repository.ts';

/** Funnel events per client IP per hour: generous (12 steps a visit, carrier NAT), but not a firehose. */
export const EVENTS_PER_IP_PER_HOUR = 600;

export interface AnalyticsServiceDeps {
  repo: AnalyticsRepository;
  limiter: Limiter;
  deviceHash(fingerprint: string): string;
}

export interface EventContext {
  ip: string;
  /** From a valid accessToken, else null. */
  userId: number | null;
  /** The platform_param header's fingerprint, used when the body has none. */
  fingerprint?: string | undefined;
}

export class AnalyticsService {
  constructor(private readonly d: AnalyticsServiceDeps) {}

  /** Stores one funnel step; a session reports each step once (a repeat stores nothing). */
  async recordEvent(input: ReportEventBody, ctx: EventContext): Promise<{ recorded: boolean }> {
    await this.d.limiter.enforce(`event:ip:${ctx.ip}`, EVENTS_PER_IP_PER_HOUR, { ms: 3600_000 }, '事件上报');
    const fingerprint = input.fingerprint ?? ctx.fingerprint;
    const recorded = await this.d.repo.insertEventOnce({
      sessionId: input.sessionId,
      step: input.step,
      adChannelCode: input.adChannelCode ?? null,
      skin: input.skin ?? null,
      fingerprintHash: fingerprint ? this.d.deviceHash(fingerprint) : null,
      behaviorCode: input.behaviorCode ?? null,
      source: input.source ?? ANALYTICS_SOURCE,
      userId: ctx.userId,
      day: shanghaiDate(),
    });
    return { recorded };
  }
}
