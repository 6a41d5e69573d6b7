import type { H5Config } from '@lm/shared/channel';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channelClicks, channels, routeCodes } from '../../db/schema.ts';
import { appError } from '../../lib/errors.ts';
import { shanghaiDate } from '../../lib/time.ts';
import type { Limiter } from '../limits/limiter.ts';
import type { ConfigCache } from './cache.ts';
import { buildH5Config, channelDetail, pickArm, safeTargetUrl, withSkin } from './rules.ts';

export const CHANNEL_NOT_FOUND_MSG = '渠道不存在';
export const ROUTE_CODE_NOT_FOUND_MSG = '路由码不存在';
export const ROUTE_CODE_DISABLED_MSG = '路由码已停用';
/** Clicks per client IP per hour (a generous cap: carrier NAT puts many phones behind one IP). */
export const CLICKS_PER_IP_PER_HOUR = 600;

export interface ChannelServiceDeps {
  db: Db;
  cache: ConfigCache;
  limiter: Limiter;
  /** Keyed hash of a device fingerprint. */
  deviceHash(fingerprint: string): string;
}

export interface ClickInput {
  adChannelCode: string;
  fingerprint?: string | undefined;
  abTestType?: number | undefined;
}

export class ChannelService {
  constructor(private readonly d: ChannelServiceDeps) {}

  get cacheName() {
    return this.d.cache.name;
  }

  /** A channel's configuration (cached), or null when there is no such channel. */
  async find(code: string): Promise<H5Config | null> {
    const cached = await this.d.cache.get(code);
    if (cached !== undefined) return cached;
    const [row] = await this.d.db.select().from(channels).where(eq(channels.adChannelCode, code)).limit(1);
    const config = row ? buildH5Config(row) : null;
    await this.d.cache.set(code, config);
    return config;
  }

  /** Call after a channel changes (console edits) so that no instance serves the old value. */
  async invalidate(code: string): Promise<void> {
    await this.d.cache.delete(code);
  }

  private async require(code: string): Promise<H5Config> {
    const config = await this.find(code);
    if (!config) throw appError('NOT_FOUND', CHANNEL_NOT_FOUND_MSG, { adChannelCode: code });
    return config;
  }

  /**
   * h5Config: the channel's configuration, or the default one without a code or for an unknown code.
   * A channel with A/B skin arms answers the skin of the visitor's arm: `visitor` is the device
   * fingerprint, else the client IP (`ip:…`) — see `armFor`. The cache holds the channel (with its
   * arms); the arm is picked after it, per request.
   */
  async h5Config(code: string | undefined, visitor?: string): Promise<H5Config> {
    return (await this.h5Answer(code, visitor)).config;
  }

  /** h5Config with whether the answer depends on the visitor (an A/B channel). */
  async h5Answer(code: string | undefined, visitor?: string): Promise<{ config: H5Config; split: boolean }> {
    const config = (code ? await this.find(code) : null) ?? buildH5Config(null);
    if (!config.skinArms) return { config, split: false };
    return { config: withSkin(config, this.armFor(config, visitor ?? '').skin), split: true };
  }

  /**
   * The arm of one visitor: a keyed hash (the device-hash key, in its own "arm" namespace) of the
   * channel code and the visitor, so it is sticky per visitor while the arms are unchanged and cannot
   * be steered by choosing a fingerprint.
   */
  armFor(config: H5Config, visitor: string): { skin: number; weight: number } {
    const arms = config.skinArms ?? [];
    return pickArm(arms, this.d.deviceHash(`arm\u0000${config.adChannelCode}\u0000${visitor}`));
  }

  async detail(code: string) {
    return channelDetail(await this.require(code));
  }

  async plan(code: string) {
    const config = await this.require(code);
    return { adChannelCode: config.adChannelCode, planTargetUrl: config.planTargetUrl };
  }

  /** Route code → channel code and plan target URL (the route's own, else the channel's). */
  async exchange(routeCode: string) {
    const [row] = await this.d.db
      .select({ route: routeCodes, allowedHosts: channels.allowedHosts, channelPlan: channels.planTargetUrl })
      .from(routeCodes)
      .innerJoin(channels, eq(channels.adChannelCode, routeCodes.adChannelCode))
      .where(eq(routeCodes.routeCode, routeCode))
      .limit(1);
    if (!row) throw appError('NOT_FOUND', ROUTE_CODE_NOT_FOUND_MSG, { adRouteCode: routeCode });
    if (row.route.status !== 1)
      throw appError('NOT_FOUND', ROUTE_CODE_DISABLED_MSG, { adRouteCode: routeCode });
    return {
      adChannelCode: row.route.adChannelCode,
      planTargetUrl: safeTargetUrl(row.route.planTargetUrl ?? row.channelPlan, row.allowedHosts),
    };
  }

  /**
   * One click on a channel's link. Counted once per fingerprint per channel per Shanghai day; a click
   * without a fingerprint is stored flagged and not counted.
   */
  async reportClick(input: ClickInput, ip: string): Promise<{ counted: boolean; flagged: boolean }> {
    await this.d.limiter.enforce(`click:ip:${ip}`, CLICKS_PER_IP_PER_HOUR, { ms: 3600_000 }, '点击上报');
    await this.require(input.adChannelCode);
    const fingerprintHash = input.fingerprint ? this.d.deviceHash(input.fingerprint) : null;
    const inserted = await this.d.db
      .insert(channelClicks)
      .values({
        adChannelCode: input.adChannelCode,
        fingerprintHash,
        day: shanghaiDate(),
        abTestType: input.abTestType ?? null,
        flagged: fingerprintHash === null,
        ip,
      })
      .onConflictDoNothing()
      .returning({ id: channelClicks.id });
    if (fingerprintHash === null) return { counted: false, flagged: true };
    return { counted: inserted.length === 1, flagged: false };
  }
}
