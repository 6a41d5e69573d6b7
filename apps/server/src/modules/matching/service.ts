import type { ApplicationForm } from '@lm/shared/schemas/application';
import {
  INFO_AGREEMENT,
  type MatchResultData,
  type ProductOffer,
  SHARING_PURPOSE,
} from '@lm/shared/schemas/matching';
import { shanghaiDate } from '@lm/shared/time';
import type { FastifyBaseLogger } from 'fastify';
import { decryptField, encryptField, type KeyRing, seal, unseal } from '../../lib/crypto.ts';
import type { Metrics } from '../../lib/metrics.ts';
import { failureReason, type PartnerClient, statusReason } from '../../lib/partner-http.ts';
import { isAllowedPartnerUrl } from '../../lib/partner-url.ts';
import { phoneHash } from '../../lib/phone-hash.ts';
import type { AuthUser } from '../auth/service.ts';
import type { CapsRepository } from '../caps/repository.ts';
import { fieldLabels, INFO_AGREEMENT_VERSION } from '../consent/agreement.ts';
import { lenderAllowance, match } from './match.ts';
import { type ProductRow, productHead, toEngineProduct } from './product-row.ts';
import { profileFromForm } from './profile.ts';
import type { MatchRepository } from './repository.ts';
import type { History, Product, ProductCounter, Reason } from './types.ts';

export interface MatchConfig {
  maxLendersPerPeriod: number;
  reapplyLockoutDays: number;
  periodDays: number;
  dupCheckTimeoutMs: number;
}

export interface MatchDeps {
  repo: MatchRepository;
  /** Cap slots: counters, reservations, the released offers' slots. */
  caps: CapsRepository;
  ring: KeyRing;
  log: FastifyBaseLogger;
  config: MatchConfig;
  /** Partner calls: no redirects, checked addresses, bounded answers (ADR 019). */
  http: PartnerClient;
  /** Counts match runs by outcome. */
  metrics?: Metrics | undefined;
}

/** A product row with what the offer and the consent page need from its partner. */
export interface CatalogEntry {
  engine: Product;
  row: ProductRow;
  partner: {
    id: number;
    code: string;
    legalName: string;
    licenceNumber: string;
    contactName: string;
    contactPhoneMasked: string;
    allowedHosts: string[];
    deliveryModes: Record<string, string>;
    dupCheckEndpoint: string | null;
    signingSecretEnc: string | null;
  };
}

export interface RunOptions {
  source: 'form' | 'auto' | 'direct';
  /** Spec §3 match type (1 default … 6 second match). */
  matchType: number;
  directMatchType: number | null;
  adChannelCode: string | null;
  phoneModel?: string | undefined;
  /** Second match: keep the open offers and offer other lenders only. */
  secondMatch: boolean;
  now?: Date;
  /** The request's logger (its lines carry the request id) and id, sent with duplicate pre-checks. */
  log?: FastifyBaseLogger | undefined;
  requestId?: string | undefined;
}

/** Link types whose lenders may take a duplicate pre-check (API integration, SaaS API). */
const DUP_CHECK_LINK_TYPES = new Set([2, 6]);
/** Link types that open the lender's own page. */
const REDIRECT_LINK_TYPES = new Set([1, 4]);

/** The lender of a catalogue entry as pages name it (its phone masked). */
function lenderOf({ partner }: CatalogEntry): ProductOffer['lender'] {
  return {
    legalName: partner.legalName,
    licenceNumber: partner.licenceNumber,
    contactName: partner.contactName,
    contactPhone: partner.contactPhoneMasked,
  };
}

/** The offer as the H5 shows it on the consent page. */
export function toOffer(entry: CatalogEntry, rank: number): ProductOffer {
  const { row, partner } = entry;
  const redirect =
    REDIRECT_LINK_TYPES.has(row.linkType) && isAllowedPartnerUrl(row.targetUrl, partner.allowedHosts);
  return {
    ...productHead(row),
    partnerProductName: row.partnerProductName,
    linkType: row.linkType,
    thirdpartyTargetUrl: redirect ? row.targetUrl : null,
    aprBps: row.aprBps ?? 0,
    amountMinFen: row.amountMinFen,
    amountMaxFen: row.amountMaxFen,
    termMinMonths: row.termMinMonths,
    termMaxMonths: row.termMaxMonths,
    lender: lenderOf(entry),
    sharedFields: fieldLabels(row.sharedFields).map((label, i) => ({
      key: row.sharedFields[i] ?? label,
      label,
    })),
    purpose: SHARING_PURPOSE,
    agreement: { id: INFO_AGREEMENT.id, version: INFO_AGREEMENT_VERSION, title: INFO_AGREEMENT.title },
    rank,
  };
}

/**
 * The opaque name of a run for links (issue 16.8): its id and its person's, sealed (AES-GCM with the
 * current personal-data key, random IV): unguessable, unforgeable, and naming no one in clear.
 */
export function matchKeyOf(ring: KeyRing, userId: number, runId: number): string {
  return seal(ring, { r: runId, u: userId });
}

/** The run a match key names, when it is `userId`'s; null for another person's, a forged or a broken key. */
export function runOfMatchKey(ring: KeyRing, key: string, userId: number): number | null {
  const payload = unseal<{ r?: unknown; u?: unknown }>(ring, key);
  if (!payload || payload.u !== userId) return null;
  return typeof payload.r === 'number' && Number.isSafeInteger(payload.r) && payload.r > 0 ? payload.r : null;
}

/** The answer of save / direct match: the top offer's fields at the top level, the others listed. */
/** The match counter's outcome by applyStatus (null: nothing matched). */
const MATCH_OUTCOME: Record<string, string> = { '1': 'offers', '0': 'sold_out', '2': 'registered' };

/**
 * Already registered (applyStatus 2): the lender's own page and the lender, so the confirm can name
 * who the person is registered with (issue 44.16). No product is offered: `id` and `productName` stay
 * null.
 */
function registeredAt(entry: CatalogEntry): { url: string; lender: ProductOffer['lender'] } {
  return { url: entry.row.targetUrl!, lender: lenderOf(entry) };
}

export function toMatchResult(
  run: { id: number; key: string } | null,
  offers: ProductOffer[],
  applyStatus: 0 | 1 | 2 | null,
  registered: { url: string; lender: ProductOffer['lender'] } | null = null,
): MatchResultData {
  const [top, ...rest] = offers;
  const matchId = run?.id ?? null;
  const matchKey = run?.key ?? null;
  if (!top) {
    return {
      matchId,
      matchKey,
      id: null,
      productName: null,
      applyStatus,
      thirdpartyTargetUrl: registered?.url ?? null,
      ...(registered ? { lender: registered.lender } : {}),
      mayAuthProductList: [],
    };
  }
  return { ...top, matchId, matchKey, applyStatus, mayAuthProductList: rest };
}

/**
 * Runs matches: engine → duplicate pre-check → atomic cap reservation → stored run and offers
 * (docs/matching-consent-delivery.md).
 */
export class MatchService {
  private catalogCache: { at: number; entries: CatalogEntry[] } | null = null;
  constructor(private readonly d: MatchDeps) {}

  /** Published products of active partners (cached for 2 s: matching runs per form save). */
  async catalog(now = Date.now()): Promise<CatalogEntry[]> {
    if (this.catalogCache && now - this.catalogCache.at < 2000) return this.catalogCache.entries;
    const rows = await this.d.repo.listPublished();
    const entries = rows.map((r) => ({
      engine: toEngineProduct(r.product, r.partner.legalName),
      row: r.product,
      partner: r.partner,
    }));
    this.catalogCache = { at: now, entries };
    return entries;
  }

  /** Forget the cached catalogue (after the console edits products; tests). */
  invalidateCatalog(): void {
    this.catalogCache = null;
  }

  /** Consents of the person in the last `days` Shanghai days (the engine's history). */
  private async history(userId: number, now: Date): Promise<History> {
    const days = Math.max(this.d.config.reapplyLockoutDays, this.d.config.periodDays) + 1;
    const since = new Date(now.getTime() - days * 86_400_000);
    const rows = await this.d.repo.consentsSince(userId, since);
    return {
      applications: rows.map((r) => ({
        productId: String(r.productId),
        partnerId: String(r.partnerId),
        at: r.at,
      })),
    };
  }

  /** Whether the lender already has this phone (false when it cannot tell in time). */
  private async dupCheck(
    entry: CatalogEntry,
    phone: string,
    ctx: Pick<RunOptions, 'log' | 'requestId'> = {},
  ): Promise<boolean> {
    const { partner } = entry;
    if (!partner.dupCheckEndpoint || !partner.signingSecretEnc) return false;
    const secret = decryptField(this.d.ring, partner.signingSecretEnc);
    const timeoutMs = this.d.config.dupCheckTimeoutMs;
    let reason: string;
    let refused: { host?: string; address?: string } = {};
    try {
      const res = await this.d.http.post(partner.dupCheckEndpoint, {
        headers: {
          'content-type': 'application/json',
          ...(ctx.requestId ? { 'x-request-id': ctx.requestId } : {}),
        },
        body: JSON.stringify({ phoneHash: phoneHash(secret, phone) }),
        timeoutMs,
      });
      if (res.status >= 200 && res.status < 300) {
        const answer = JSON.parse(res.text) as { exists?: unknown; data?: { exists?: unknown } } | null;
        return answer?.exists === true || answer?.data?.exists === true;
      }
      // A 3xx is a failed pre-check too: the redirect is not followed.
      reason = statusReason(res.status);
    } catch (err) {
      // Never the parser's message: it quotes the answer.
      const e = err instanceof SyntaxError ? null : failureReason(err, timeoutMs);
      reason = e ? e.reason : '应答不是有效的 JSON';
      if (e?.address) refused = { host: e.host, address: e.address };
    }
    (ctx.log ?? this.d.log).warn(
      { partner: partner.code, err: { message: reason }, ...refused },
      'duplicate pre-check failed; lender kept',
    );
    return false;
  }

  /** Matches `form` for `user` and stores the run and its offers. */
  async run(user: AuthUser, form: ApplicationForm, opts: RunOptions): Promise<MatchResultData> {
    const result = await this.runOnce(user, form, opts);
    this.d.metrics?.matches.inc({ outcome: MATCH_OUTCOME[String(result.applyStatus)] ?? 'none' });
    return result;
  }

  private async runOnce(user: AuthUser, form: ApplicationForm, opts: RunOptions): Promise<MatchResultData> {
    const now = opts.now ?? new Date();
    const { config } = this.d;
    const day = shanghaiDate(now);
    const profile = profileFromForm(form, opts.phoneModel);
    const phone = user.mobileEnc ? decryptField(this.d.ring, user.mobileEnc) : null;

    const [catalog, history] = await Promise.all([this.catalog(now.getTime()), this.history(user.id, now)]);
    const byId = new Map(catalog.map((e) => [e.engine.id, e]));

    // A second match keeps the open offers: their lenders are not offered again and count against
    // the allowance.
    const open = await this.d.repo.openOffersOfUser(user.id);
    const openPartners = opts.secondMatch ? new Set(open.map((o) => String(o.partnerId))) : new Set<string>();
    const candidatesPool = opts.secondMatch
      ? catalog.filter((e) => !openPartners.has(e.engine.partnerId)).map((e) => e.engine)
      : catalog.map((e) => e.engine);

    const counters: Record<string, ProductCounter | undefined> = {
      ...(await this.d.caps.todayCounters(day)),
    };
    if (!opts.secondMatch) {
      // The person's open offers are released before the new ones are reserved: their slots are theirs.
      for (const o of open) {
        const c = counters[String(o.productId)];
        if (!c) continue;
        counters[String(o.productId)] = {
          today: o.capDay === day ? Math.max(0, c.today - 1) : c.today,
          total: Math.max(0, c.total - 1),
        };
      }
    }
    const result = match(profile, candidatesPool, counters, history, {
      now,
      maxLendersPerPeriod: Math.max(candidatesPool.length, 1),
      reapplyLockoutDays: config.reapplyLockoutDays,
      periodDays: config.periodDays,
    });
    const allowance = Math.max(
      0,
      lenderAllowance(history, {
        now,
        maxLendersPerPeriod: config.maxLendersPerPeriod,
        periodDays: config.periodDays,
      }) - openPartners.size,
    );
    const excluded: { productId: string; reasons: Reason[] }[] = result.excluded.filter(
      (x) => !x.reasons.some((r) => r.code === 'LENDER_LIMIT'),
    );

    // Duplicate pre-check of the first candidates (in parallel, before any lock is taken).
    const checkCount = allowance + 3;
    const duplicates = new Set<string>();
    if (phone) {
      const toCheck = result.eligible
        .slice(0, checkCount)
        .map((r) => byId.get(r.productId)!)
        .filter((e) => DUP_CHECK_LINK_TYPES.has(e.row.linkType) && e.partner.dupCheckEndpoint);
      const answers = await Promise.all(toCheck.map((e) => this.dupCheck(e, phone, opts)));
      toCheck.forEach((e, i) => {
        if (answers[i]) duplicates.add(e.engine.id);
      });
    }

    // Already registered: the top duplicate lender's own page, when it has one on an allowed host.
    let registered: CatalogEntry | null = null;
    for (const r of result.eligible) {
      if (!duplicates.has(r.productId)) continue;
      const entry = byId.get(r.productId)!;
      if (isAllowedPartnerUrl(entry.row.targetUrl, entry.partner.allowedHosts)) {
        registered = entry;
        break;
      }
    }

    const profileEnc = encryptField(this.d.ring, JSON.stringify(form));
    const { caps } = this.d;
    // An old-user match or a new form replaces the open offers: their slots are given back first.
    if (!opts.secondMatch) await caps.releaseOffers(user.id, 'released');

    // Cap slots, best candidate first, one single-statement reservation each.
    const picked: { ranked: (typeof result.eligible)[number]; entry: CatalogEntry }[] = [];
    let capped = 0;
    for (const ranked of result.eligible) {
      if (picked.length >= allowance) {
        excluded.push({
          productId: ranked.productId,
          reasons: [{ code: 'LENDER_LIMIT', text: '本期可匹配的机构数已达上限' }],
        });
        continue;
      }
      if (duplicates.has(ranked.productId)) {
        excluded.push({
          productId: ranked.productId,
          reasons: [{ code: 'ALREADY_REGISTERED', text: '该机构查重：已有您的申请记录' }],
        });
        continue;
      }
      if (!(await caps.reserve(ranked.product, day))) {
        capped++;
        excluded.push({
          productId: ranked.productId,
          reasons: [{ code: 'DAILY_CAP_REACHED', text: '该产品名额已满（并发匹配时被占用）' }],
        });
        continue;
      }
      picked.push({ ranked, entry: byId.get(ranked.productId)! });
    }
    const soldOut =
      picked.length === 0 &&
      (capped > 0 ||
        result.excluded.some((x) =>
          x.reasons.every((r) => r.code === 'DAILY_CAP_REACHED' || r.code === 'TOTAL_CAP_REACHED'),
        ));
    excluded.sort((a, b) => Number(a.productId) - Number(b.productId));
    const applyStatus = picked.length > 0 ? 1 : soldOut ? 0 : registered ? 2 : null;

    let runId: number;
    try {
      runId = await this.d.repo.transaction(async (repo) => {
        const id = await repo.insertRun({
          userId: user.id,
          adChannelCode: opts.adChannelCode,
          matchType: opts.matchType,
          directMatchType: opts.directMatchType,
          source: opts.source,
          profileEnc,
          excluded,
          applyStatus,
        });
        if (picked.length > 0) {
          await repo.insertOffers(
            picked.map(({ ranked, entry }, i) => ({
              runId: id,
              userId: user.id,
              productId: entry.row.id,
              partnerId: entry.partner.id,
              rank: i + 1,
              matched: ranked.matched,
              capDay: day,
            })),
          );
        }
        if (opts.source !== 'direct' && user.userInfoStatus !== 1) {
          await repo.markMatched(user.id);
        }
        return id;
      });
    } catch (err) {
      // The offers were not stored: their slots go back (a crash right here leaves a slot taken,
      // which keeps the cap conservative — never exceeded).
      await Promise.allSettled(picked.map((p) => caps.unreserve(p.entry.row.id, day)));
      throw err;
    }
    const offered = picked.map((p) => p.entry);

    const offers = offered.map((entry, i) => toOffer(entry, i + 1));
    const run = { id: runId, key: matchKeyOf(this.d.ring, user.id, runId) };
    if (offers.length > 0) return toMatchResult(run, offers, 1);
    if (soldOut) return toMatchResult(run, [], 0);
    if (registered) return toMatchResult(run, [], 2, registeredAt(registered));
    return toMatchResult(run, [], null);
  }

  /**
   * A run of `userId` as its answer was (issue 16.8: pages pass the match key, not the result): its
   * offers still open, in rank order, with today's product and lender details; null when the run is
   * not the person's. An already-registered run names the first such lender's page on an allowed host.
   */
  async load(userId: number, runId: number, key: string): Promise<MatchResultData | null> {
    const run = await this.d.repo.findRunOf(userId, runId);
    if (!run) return null;
    const open = await this.d.repo.openOffersOfRun(runId);
    const catalog = await this.catalog();
    const byRow = new Map(catalog.map((e) => [e.row.id, e]));
    const entries = open.map((o) => byRow.get(o.productId)).filter((e): e is CatalogEntry => Boolean(e));
    const offers = entries.map((entry, i) => toOffer(entry, i + 1));
    const ref = { id: runId, key };
    if (offers.length > 0) return toMatchResult(ref, offers, 1);
    if (run.applyStatus === 0) return toMatchResult(ref, [], 0);
    if (run.applyStatus === 2) {
      const registered = run.excluded
        .filter((x) => x.reasons.some((r) => r.code === 'ALREADY_REGISTERED'))
        .map((x) => byRow.get(Number(x.productId)))
        .find((e) => e && isAllowedPartnerUrl(e.row.targetUrl, e.partner.allowedHosts));
      if (registered) return toMatchResult(ref, [], 2, registeredAt(registered));
    }
    return toMatchResult(ref, [], null);
  }
}
