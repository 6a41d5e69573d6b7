import type { H5Config } from '@lm/shared/channel';
import { shanghaiDate } from '@lm/shared/time';
import type { LicensedCompany } from '../../db/schema.ts';
import { AppError, appError } from '../../lib/errors.ts';
import type { Limiter } from '../limits/limiter.ts';
import { type CachedConfig, type ConfigCache, H5_CONFIG_L1_TTL_MS, MemoryConfigCache } from './cache.ts';
import type { ClickRow, ClickStore } from './click-store.ts';
import type { ChannelRepository } from './repository.ts';
import {
  buildH5Config,
  type ChannelSource,
  channelDetail,
  pickArm,
  safeTargetUrl,
  withSkin,
} from './rules.ts';

export const CHANNEL_NOT_FOUND_MSG = '渠道不存在';
export const ROUTE_CODE_NOT_FOUND_MSG = '路由码不存在';
export const ROUTE_CODE_DISABLED_MSG = '路由码已停用';
/** Codes never made by an operator (unknown, deleted) counted at most: see `countRouteCodeMiss`. */
export const MAX_COUNTED_UNKNOWN_ROUTE_CODES = 1000;
/** Clicks per client IP per hour (a generous cap: carrier NAT puts many phones behind one IP). */
export const CLICKS_PER_IP_PER_HOUR = 600;
/** The click report's per-IP counter; every key starts with CLICK_LIMIT_PREFIX. */
export const CLICK_LIMIT_PREFIX = 'click:ip:';
export const clickLimitKey = (ip: string) => `${CLICK_LIMIT_PREFIX}${ip}`;
/** The click limit's window: an hour from an address's first click. */
const CLICK_LIMIT_WINDOW = { ms: 3600_000 };
/** What the click limit's refusal names ("点击上报过于频繁…"). */
const CLICK_WHAT = '点击上报';

export interface ChannelServiceDeps {
  repo: ChannelRepository;
  cache: ConfigCache;
  limiter: Limiter;
  /** Keyed hash of a device fingerprint. */
  deviceHash(fingerprint: string): string;
  /** The configured operator's record: the footer of no channel and of a channel without an operator (ADR 057). */
  fallbackOperator: LicensedCompany;
  /** Tells every instance that a code changed (Redis pub/sub); their L1 drops it (`dropLocal`). */
  announce?(code: string): Promise<void>;
  /** The L1's TTL in front of Redis (default H5_CONFIG_L1_TTL_MS). */
  l1TtlMs?: number;
  /** Where clicks are stored and a fingerprint's first click of the day decided (click-store.ts). */
  clicks: ClickStore;
}

export interface ClickInput {
  adChannelCode: string;
  fingerprint?: string | undefined;
  abTestType?: number | undefined;
}

/**
 * An h5Config answer: `config` is `channel` (the cached object itself) or, for an A/B channel, a copy
 * with the visitor's arm's `skin`; `split` says the answer depends on the visitor.
 */
export interface H5Answer {
  config: H5Config;
  split: boolean;
  channel: H5Config;
  skin: number;
}

/**
 * Who asks, for an A/B channel's arm (see `armFor`): the value, or a function that works it out, called
 * only when the channel has arms (every other answer is the same for everybody: no header parsed for it).
 */
export type Visitor = string | (() => string);

const ignoreStale = (): void => {};

export class ChannelService {
  /**
   * The L1: configurations in this process's memory, read without a promise on the hot path. The cache
   * itself when that is in memory (no Redis); in front of Redis a short-lived copy, on only while
   * invalidations reach this instance (`setLocalCache`, driven by the pub/sub subscription).
   */
  private readonly l1: MemoryConfigCache;
  private l1On: boolean;
  /** Bumped by every drop: a read that started before one does not fill the L1 with what it read. */
  private generation = 0;
  private invalidated = 0;
  /** Reads of a configuration under way, one per code (a miss or a stale entry's refresh): callers share it. */
  private readonly loading = new Map<string, Promise<CachedConfig>>();
  /** Refreshes a stale L1 entry behind the answer that used it (made once: the hot path passes it). */
  private readonly refreshBehind = (code: string): void => {
    if (!this.loading.has(code))
      this.load(code).catch(() => {
        // The stale copy is answered until its grace ends; then a request reads the database and fails there.
      });
  };
  private defaultConfig: H5Config | null = null;

  constructor(private readonly d: ChannelServiceDeps) {
    this.l1 =
      d.cache instanceof MemoryConfigCache
        ? d.cache
        : new MemoryConfigCache(d.l1TtlMs ?? H5_CONFIG_L1_TTL_MS);
    this.l1On = this.l1 === d.cache;
  }

  get cacheName() {
    return this.d.cache.name;
  }

  /** In front of Redis: the L1 is used only while `on` (invalidations arrive); off clears it. */
  setLocalCache(on: boolean): void {
    if (this.l1 === this.d.cache) return;
    this.l1On = on;
    if (!on) {
      this.invalidated++;
      this.generation++;
      this.loading.clear();
      this.l1.clear();
    }
  }

  /** Another instance invalidated `code`: forget this instance's copy. */
  dropLocal(code: string): void {
    this.invalidated++;
    if (this.l1 === this.d.cache) return;
    this.forget(code);
  }

  /** Drops the L1's copy of `code`; a read under way neither fills it nor is shared any more. */
  private forget(code: string): void {
    this.generation++;
    this.loading.delete(code);
    this.l1.drop(code);
  }

  /**
   * How many times this instance was told that a channel changed (an edit here or, with Redis, on another
   * instance; the L1 switched off): what was derived from any channel's rows before — a route code's exchange
   * kept by the channel pages — is not to be used once it moves. Read without a promise.
   */
  get invalidations(): number {
    return this.invalidated;
  }

  /**
   * The L1's entry, without a promise: `undefined` when it has none. One past its TTL is still answered
   * (within the grace) while a single read replaces it (ADR 049).
   */
  peek(code: string): CachedConfig | undefined {
    return this.l1On ? this.l1.peekServing(code, this.refreshBehind) : undefined;
  }

  /** A channel's configuration (cached), or null when there is no such channel. */
  async find(code: string): Promise<H5Config | null> {
    const local = this.peek(code);
    if (local !== undefined) return local;
    return this.load(code);
  }

  /** Reads `code`'s configuration into the L1, once for every caller of the moment (ADR 049). */
  private load(code: string): Promise<CachedConfig> {
    const running = this.loading.get(code);
    if (running) return running;
    const read = this.read(code, this.generation).finally(() => {
      if (this.loading.get(code) === read) this.loading.delete(code);
    });
    this.loading.set(code, read);
    return read;
  }

  private async read(code: string, generation: number): Promise<CachedConfig> {
    if (this.l1 !== this.d.cache) {
      const cached = await this.d.cache.get(code);
      if (cached !== undefined) return this.fill(code, cached, generation);
    }
    const row = await this.d.repo.findByCode(code);
    const config = row ? this.configOf(row) : null;
    if (this.l1 !== this.d.cache) await this.d.cache.set(code, config);
    return this.fill(code, config, generation);
  }

  /**
   * Puts what a read found in the L1, unless a drop came since the read started. A value equal to the one held
   * keeps the object held: what is made from it (h5Config's encoded answers, keyed by the object) stays,
   * and a refresh that found no change costs no page rendered again. Returns what the L1 holds.
   */
  private fill(code: string, value: CachedConfig, generation: number): CachedConfig {
    if (!this.l1On || generation !== this.generation) return value;
    const held = this.l1.peekServing(code, ignoreStale);
    const kept = held !== undefined && JSON.stringify(held) === JSON.stringify(value) ? held : value;
    this.l1.put(code, kept);
    return kept;
  }

  /** Call after a channel changes (console edits) so that no instance serves the old value. */
  async invalidate(code: string): Promise<void> {
    if (this.l1 === this.d.cache) {
      this.invalidated++;
      this.forget(code);
      return;
    }
    this.dropLocal(code);
    // Redis first, then the announcement: an instance that drops its copy reads the database.
    await this.d.cache.delete(code);
    await this.d.announce?.(code);
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
  async h5Config(code: string | undefined, visitor?: Visitor): Promise<H5Config> {
    return (await this.h5Answer(code, visitor)).config;
  }

  /** h5Config with whether the answer depends on the visitor (an A/B channel). */
  async h5Answer(code: string | undefined, visitor?: Visitor): Promise<H5Answer> {
    return this.answerOf((code ? await this.find(code) : null) ?? this.defaults(), visitor);
  }

  /** The default configuration (no channel), built once: answers never change it. */
  private defaults(): H5Config {
    this.defaultConfig ??= buildH5Config(null, this.d.fallbackOperator);
    return this.defaultConfig;
  }

  /** A channel's configuration from its row and operator (the console's preview builds one from a draft). */
  configOf(source: ChannelSource): H5Config {
    return buildH5Config(source, this.d.fallbackOperator);
  }

  private answerOf(channel: H5Config, visitor: Visitor | undefined): H5Answer {
    if (!channel.skinArms) return { config: channel, split: false, channel, skin: channel.skin };
    const skin = this.armFor(channel, (typeof visitor === 'function' ? visitor() : visitor) ?? '').skin;
    return { config: withSkin(channel, skin), split: true, channel, skin };
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
    const row = await this.d.repo.findRouteCode(routeCode);
    if (!row) throw appError('NOT_FOUND', ROUTE_CODE_NOT_FOUND_MSG, { adRouteCode: routeCode });
    if (row.route.status !== 1)
      throw appError('NOT_FOUND', ROUTE_CODE_DISABLED_MSG, { adRouteCode: routeCode });
    return {
      adChannelCode: row.route.adChannelCode,
      planTargetUrl: safeTargetUrl(row.route.planTargetUrl ?? row.channelPlan, row.allowedHosts),
    };
  }

  /**
   * The exchange an ad link's visitor asks for (`GET /api/adChannel/exchange/adChannelCode`): a route code
   * that does not exchange (unknown, deleted, disabled) is counted for the console's 失效访问 before the
   * 404 (issue 44.19); the visitor's page goes on with the default channel. Pages rendered by the server
   * exchange with `exchange` and count nothing: the app asks again on that page.
   */
  async exchangeForVisitor(routeCode: string) {
    try {
      return await this.exchange(routeCode);
    } catch (err) {
      if (err instanceof AppError && err.kind === 'NOT_FOUND')
        await this.d.repo.countRouteCodeMiss(routeCode, new Date(), MAX_COUNTED_UNKNOWN_ROUTE_CODES);
      throw err;
    }
  }

  /**
   * One click on a channel's link: the address's hourly limit first (the app's limiter: Redis, or the
   * database), then the channel (404 for an unknown one), then the store. Counted once per fingerprint per
   * channel per Shanghai day; a click without a fingerprint is stored flagged and not counted.
   */
  async reportClick(input: ClickInput, ip: string): Promise<{ counted: boolean; flagged: boolean }> {
    await this.d.limiter.enforce(clickLimitKey(ip), CLICKS_PER_IP_PER_HOUR, CLICK_LIMIT_WINDOW, CLICK_WHAT);
    await this.require(input.adChannelCode);
    const now = new Date();
    const row: ClickRow = {
      adChannelCode: input.adChannelCode,
      fingerprintHash: input.fingerprint ? this.d.deviceHash(input.fingerprint) : null,
      day: shanghaiDate(now),
      abTestType: input.abTestType ?? null,
      ip,
      at: now,
    };
    const counted = await this.d.clicks.record(row);
    return { counted, flagged: row.fingerprintHash === null };
  }
}
