import { randomBytes } from 'node:crypto';
import { maskPhone } from '@lm/shared/mask';
import {
  PARTNER_SORTS,
  type PartnerCreateBody,
  type PartnerItem,
  type PartnerList,
  type PartnerListQuery,
  type PartnerSecretData,
  type PartnerUpdateBody,
  PRODUCT_SORTS,
  type ProductBody,
  type ProductCreateBody,
  type ProductDetail,
  type ProductItem,
  type ProductList,
  type ProductListQuery,
  type ProductStatusValue,
  type RuleTesterBody,
  type RuleTesterData,
} from '@lm/shared/schemas/admin-catalog';
import { and, asc, count, desc, eq, ilike, inArray, not, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { partners, productCounters, products, productTotals } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type { OutboundPolicy } from '../../lib/partner-http.ts';
import { shanghaiDate } from '../../lib/time.ts';
import { recordAudit } from '../audit/service.ts';
import { todayCounters } from '../caps/slots.ts';
import { previousSecretValidUntil } from '../delivery/signing.ts';
import { match, profileAge, ruleReasons } from '../matching/match.ts';
import { toEngineProduct } from '../matching/product-row.ts';
import type { MatchService } from '../matching/service.ts';
import {
  channelNotes,
  endpointAddressProblem,
  publishProblems,
  targetUrlProblem,
  testerProfile,
} from './rules.ts';

type PartnerRow = typeof partners.$inferSelect;

export interface AdminCatalogDeps {
  db: Db;
  ring: KeyRing;
  matching: MatchService;
  /** Where partner endpoints may point (ADR 019): the rules, the allow-list, the resolver. */
  outbound: OutboundPolicy;
  matchConfig: { maxLendersPerPeriod: number; reapplyLockoutDays: number; periodDays: number };
  findChannel: (code: string) => Promise<{ channelStatus: number; excludeCityCodes: string[] } | null>;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const escapeLike = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A new HMAC signing secret: 32 random bytes, base64url (43 characters). */
export function newSigningSecret(): string {
  return randomBytes(32).toString('base64url');
}

function validationError(msg: string, field?: string): never {
  throw appError('VALIDATION_FAILED', msg, field ? { field } : null);
}

/** Partners, products and the rule tester for the console (issue 7). Every change is audited. */
export class AdminCatalogService {
  constructor(private readonly d: AdminCatalogDeps) {}

  /* —— partners —— */

  private toPartner(row: PartnerRow, productCount: number): PartnerItem {
    const until = row.previousSigningSecretEnc ? previousSecretValidUntil(row.secretRotatedAt) : null;
    return {
      id: row.id,
      code: row.code,
      legalName: row.legalName,
      licenceNumber: row.licenceNumber,
      contactName: row.contactName,
      contactPhoneMasked: row.contactPhoneMasked,
      apiEndpoint: row.apiEndpoint,
      dupCheckEndpoint: row.dupCheckEndpoint,
      allowedHosts: row.allowedHosts,
      deliveryModes: row.deliveryModes,
      status: row.status,
      hasSecret: Boolean(row.signingSecretEnc),
      secretRotatedAt: iso(row.secretRotatedAt),
      previousSecretValidUntil: until && until.getTime() > Date.now() ? until.toISOString() : null,
      productCount,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /**
   * Refuses an endpoint that is not a public https address (ADR 019): by its URL (any spelling of a
   * private, loopback, link-local, shared, multicast or metadata address; local names), and by what
   * its name resolves to now. The delivery client checks the address again when it connects.
   */
  private async checkEndpoints(body: { apiEndpoint?: string | null; dupCheckEndpoint?: string | null }) {
    const { outbound } = this.d;
    for (const [field, label] of [
      ['apiEndpoint', '线索推送地址'],
      ['dupCheckEndpoint', '查重地址'],
    ] as const) {
      const value = body[field];
      if (!value) continue;
      const problem = await endpointAddressProblem(
        value,
        outbound,
        outbound.resolve,
        outbound.resolveTimeoutMs,
      );
      if (problem) validationError(`${label}${problem}`, field);
    }
  }

  private async productCounts(ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.d.db
      .select({ partnerId: products.partnerId, n: count() })
      .from(products)
      .where(inArray(products.partnerId, ids))
      .groupBy(products.partnerId);
    return new Map(rows.map((r) => [r.partnerId, Number(r.n)]));
  }

  async listPartners(q: PartnerListQuery): Promise<PartnerList> {
    const conds: SQL[] = [];
    if (q.q) {
      const like = escapeLike(q.q);
      conds.push(
        or(ilike(partners.legalName, like), ilike(partners.code, like), ilike(partners.licenceNumber, like))!,
      );
    }
    if (q.status) conds.push(eq(partners.status, q.status));
    const where = conds.length ? and(...conds) : undefined;
    const sortKey = (PARTNER_SORTS as readonly string[]).includes(q.sort ?? '') ? q.sort! : 'id';
    if (q.sort && sortKey !== q.sort)
      validationError(`不支持按 ${q.sort} 排序，可选：${PARTNER_SORTS.join('、')}`);
    const column = {
      id: partners.id,
      legalName: partners.legalName,
      updatedAt: partners.updatedAt,
      createdAt: partners.createdAt,
    }[sortKey as (typeof PARTNER_SORTS)[number]];
    const dir = q.order === 'asc' ? asc : desc;
    const [totalRow] = await this.d.db.select({ n: count() }).from(partners).where(where);
    const rows = await this.d.db
      .select()
      .from(partners)
      .where(where)
      .orderBy(dir(column), dir(partners.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    const counts = await this.productCounts(rows.map((r) => r.id));
    return {
      total: Number(totalRow?.n ?? 0),
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map((r) => this.toPartner(r, counts.get(r.id) ?? 0)),
    };
  }

  private async partnerRow(id: number, db: Db = this.d.db): Promise<PartnerRow> {
    const [row] = await db.select().from(partners).where(eq(partners.id, id)).limit(1);
    if (!row) throw appError('NOT_FOUND', '合作机构不存在');
    return row;
  }

  async getPartner(id: number): Promise<PartnerItem> {
    const row = await this.partnerRow(id);
    return this.toPartner(row, (await this.productCounts([id])).get(id) ?? 0);
  }

  /** Creates a partner with a fresh signing secret, answered once. */
  async createPartner(actor: Actor, body: PartnerCreateBody): Promise<PartnerSecretData> {
    await this.checkEndpoints(body);
    const [dup] = await this.d.db
      .select({ id: partners.id })
      .from(partners)
      .where(eq(partners.code, body.code))
      .limit(1);
    if (dup) validationError(`机构编码 ${body.code} 已存在`, 'code');
    const secret = newSigningSecret();
    const row = await this.d.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(partners)
        .values({
          code: body.code,
          legalName: body.legalName,
          licenceNumber: body.licenceNumber,
          contactName: body.contactName,
          contactPhoneEnc: encryptField(this.d.ring, body.contactPhone),
          contactPhoneMasked: maskPhone(body.contactPhone),
          apiEndpoint: body.apiEndpoint ?? null,
          dupCheckEndpoint: body.dupCheckEndpoint ?? null,
          signingSecretEnc: encryptField(this.d.ring, secret),
          allowedHosts: dedupe(body.allowedHosts),
          deliveryModes: body.deliveryModes,
          status: body.status,
        })
        .returning();
      await recordAudit(tx as unknown as Db, actor, {
        action: 'create',
        entity: 'partner',
        entityId: created!.id,
        after: created!,
      });
      return created!;
    });
    this.d.matching.invalidateCatalog();
    return { partner: this.toPartner(row, 0), secret, previousSecretValidUntil: null };
  }

  async updatePartner(actor: Actor, id: number, body: PartnerUpdateBody): Promise<PartnerItem> {
    await this.checkEndpoints(body);
    const row = await this.d.db.transaction(async (tx) => {
      const before = await this.partnerRow(id, tx as unknown as Db);
      const [after] = await tx
        .update(partners)
        .set({
          legalName: body.legalName,
          licenceNumber: body.licenceNumber,
          contactName: body.contactName,
          ...(body.contactPhone
            ? {
                contactPhoneEnc: encryptField(this.d.ring, body.contactPhone),
                contactPhoneMasked: maskPhone(body.contactPhone),
              }
            : {}),
          apiEndpoint: body.apiEndpoint ?? null,
          dupCheckEndpoint: body.dupCheckEndpoint ?? null,
          allowedHosts: dedupe(body.allowedHosts),
          deliveryModes: body.deliveryModes,
          status: body.status,
          updatedAt: new Date(),
        })
        .where(eq(partners.id, id))
        .returning();
      await recordAudit(tx as unknown as Db, actor, {
        action: 'update',
        entity: 'partner',
        entityId: id,
        ...changedOnly(before, after!),
      });
      return after!;
    });
    this.d.matching.invalidateCatalog();
    return this.getPartner(row.id);
  }

  /**
   * A new signing secret, answered once: deliveries sign with it at once (the worker reads the secret
   * per delivery); callbacks signed with the previous one are accepted for 24 h (SECRET_GRACE_MS).
   * The audit entry records the rotation, never a secret.
   */
  async rotateSecret(actor: Actor, id: number): Promise<PartnerSecretData> {
    const secret = newSigningSecret();
    const now = new Date();
    const row = await this.d.db.transaction(async (tx) => {
      const before = await this.partnerRow(id, tx as unknown as Db);
      const [after] = await tx
        .update(partners)
        .set({
          signingSecretEnc: encryptField(this.d.ring, secret),
          previousSigningSecretEnc: before.signingSecretEnc,
          secretRotatedAt: now,
          updatedAt: now,
        })
        .where(eq(partners.id, id))
        .returning();
      await recordAudit(tx as unknown as Db, actor, {
        action: 'rotate-secret',
        entity: 'partner',
        entityId: id,
        before: { secretRotatedAt: before.secretRotatedAt, hadSecret: Boolean(before.signingSecretEnc) },
        after: {
          secretRotatedAt: now,
          previousSecretValidUntil: before.signingSecretEnc ? previousSecretValidUntil(now) : null,
        },
      });
      return after!;
    });
    this.d.matching.invalidateCatalog();
    const partner = await this.getPartner(row.id);
    return { partner, secret, previousSecretValidUntil: partner.previousSecretValidUntil };
  }

  /* —— products —— */

  private productRows(where: SQL | undefined, day: string) {
    return this.d.db
      .select({
        product: products,
        partnerName: partners.legalName,
        partnerStatus: partners.status,
        allowedHosts: partners.allowedHosts,
        todayCount: sql<number>`coalesce(${productCounters.count}, 0)`,
        totalCount: sql<number>`coalesce(${productTotals.count}, 0)`,
      })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .leftJoin(
        productCounters,
        and(eq(productCounters.productId, products.id), eq(productCounters.day, day)),
      )
      .leftJoin(productTotals, eq(productTotals.productId, products.id))
      .where(where);
  }

  private toItem(r: Awaited<ReturnType<AdminCatalogService['productRows']>>[number]): ProductItem {
    const p = r.product;
    return {
      id: p.id,
      code: p.code,
      partnerId: p.partnerId,
      partnerName: r.partnerName,
      partnerStatus: r.partnerStatus,
      productName: p.productName,
      companyType: p.companyType,
      institutionType: p.institutionType,
      linkType: p.linkType,
      amountMinFen: p.amountMinFen,
      amountMaxFen: p.amountMaxFen,
      termMinMonths: p.termMinMonths,
      termMaxMonths: p.termMaxMonths,
      aprBps: p.aprBps,
      priority: p.priority,
      priceFen: p.priceFen,
      status: p.status,
      dailyCap: p.dailyCap,
      totalCap: p.totalCap,
      todayCount: Number(r.todayCount),
      totalCount: Number(r.totalCount),
      updatedAt: p.updatedAt.toISOString(),
    };
  }

  async listProducts(q: ProductListQuery, now = new Date()): Promise<ProductList> {
    const conds: SQL[] = [];
    if (q.q) {
      const like = escapeLike(q.q);
      conds.push(or(ilike(products.productName, like), ilike(products.code, like))!);
    }
    if (q.partnerId) conds.push(eq(products.partnerId, q.partnerId));
    if (q.status) conds.push(eq(products.status, q.status));
    if (q.linkType) conds.push(eq(products.linkType, q.linkType));
    const where = conds.length ? and(...conds) : undefined;
    if (q.sort && !(PRODUCT_SORTS as readonly string[]).includes(q.sort))
      validationError(`不支持按 ${q.sort} 排序，可选：${PRODUCT_SORTS.join('、')}`);
    const sortKey = (q.sort ?? 'id') as (typeof PRODUCT_SORTS)[number];
    const column = {
      id: products.id,
      priority: products.priority,
      aprBps: products.aprBps,
      priceFen: products.priceFen,
      updatedAt: products.updatedAt,
    }[sortKey];
    const dir = q.order === 'asc' ? asc : desc;
    const [totalRow] = await this.d.db.select({ n: count() }).from(products).where(where);
    const rows = await this.productRows(where, shanghaiDate(now))
      .orderBy(
        q.order === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`,
        dir(products.id),
      )
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    return {
      total: Number(totalRow?.n ?? 0),
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map((r) => this.toItem(r)),
    };
  }

  async getProduct(id: number, now = new Date()): Promise<ProductDetail> {
    const [r] = await this.productRows(eq(products.id, id), shanghaiDate(now)).limit(1);
    if (!r) throw appError('NOT_FOUND', '产品不存在');
    const p = r.product;
    return {
      ...this.toItem(r),
      thirdpartyType: p.thirdpartyType,
      partnerProductName: p.partnerProductName,
      targetUrl: p.targetUrl,
      rules: p.rules as Record<string, unknown>,
      activeHours: p.activeHours ?? null,
      sharedFields: p.sharedFields,
      partnerAllowedHosts: r.allowedHosts,
      publishProblems: publishProblems(toEngineProduct(p, r.partnerName), {
        partnerStatus: r.partnerStatus,
        allowedHosts: r.allowedHosts,
        targetUrl: p.targetUrl,
      }),
      createdAt: p.createdAt.toISOString(),
    };
  }

  private productValues(body: ProductBody) {
    return {
      partnerId: body.partnerId,
      productName: body.productName,
      companyType: body.companyType,
      institutionType: body.institutionType,
      thirdpartyType: body.thirdpartyType,
      partnerProductName: body.partnerProductName ?? null,
      linkType: body.linkType,
      amountMinFen: body.amountMinFen,
      amountMaxFen: body.amountMaxFen,
      termMinMonths: body.termMinMonths,
      termMaxMonths: body.termMaxMonths,
      aprBps: body.aprBps ?? null,
      targetUrl: body.targetUrl ?? null,
      rules: stripUndefined(body.rules),
      dailyCap: body.dailyCap ?? null,
      totalCap: body.totalCap ?? null,
      priority: body.priority,
      priceFen: body.priceFen,
      activeHours: body.activeHours ?? null,
      sharedFields: body.sharedFields,
    };
  }

  private async checkTarget(db: Db, body: ProductBody): Promise<PartnerRow> {
    const partner = await this.partnerRow(body.partnerId, db).catch(() =>
      validationError('所选合作机构不存在', 'partnerId'),
    );
    const problem = targetUrlProblem(body.targetUrl, partner.allowedHosts);
    if (problem) validationError(problem, 'targetUrl');
    return partner;
  }

  async createProduct(actor: Actor, body: ProductCreateBody): Promise<ProductDetail> {
    const id = await this.d.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      await this.checkTarget(db, body);
      const [dup] = await tx
        .select({ id: products.id })
        .from(products)
        .where(eq(products.code, body.code))
        .limit(1);
      if (dup) validationError(`产品编码 ${body.code} 已存在`, 'code');
      const [created] = await tx
        .insert(products)
        .values({ code: body.code, ...this.productValues(body), status: 'draft' })
        .returning();
      await recordAudit(db, actor, {
        action: 'create',
        entity: 'product',
        entityId: created!.id,
        after: created!,
      });
      return created!.id;
    });
    this.d.matching.invalidateCatalog();
    return this.getProduct(id);
  }

  /**
   * Replaces a product's settings. A published product stays published only if it may still be
   * published: an edit that breaks canPublish (e.g. APR above 24 %) is refused with the reasons.
   */
  async updateProduct(actor: Actor, id: number, body: ProductBody): Promise<ProductDetail> {
    await this.d.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const [before] = await tx.select().from(products).where(eq(products.id, id)).limit(1);
      if (!before) throw appError('NOT_FOUND', '产品不存在');
      const partner = await this.checkTarget(db, body);
      const values = this.productValues(body);
      if (before.status === 'published') {
        const next = { ...before, ...values };
        const problems = publishProblems(toEngineProduct(next, partner.legalName), {
          partnerStatus: partner.status,
          allowedHosts: partner.allowedHosts,
          targetUrl: next.targetUrl,
        });
        if (problems.length > 0)
          throw appError(
            'VALIDATION_FAILED',
            `产品已上架，修改后将不满足上架条件：${problems.map((p) => p.text).join('；')}。请先下架再修改`,
            { problems },
          );
      }
      const [after] = await tx
        .update(products)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(products.id, id))
        .returning();
      await recordAudit(db, actor, {
        action: 'update',
        entity: 'product',
        entityId: id,
        ...changedOnly(before, after!),
      });
    });
    this.d.matching.invalidateCatalog();
    return this.getProduct(id);
  }

  /** draft / published / paused; publishing is refused with every reason (canPublish and more). */
  async setProductStatus(actor: Actor, id: number, status: ProductStatusValue): Promise<ProductDetail> {
    await this.d.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const [r] = await tx
        .select({ product: products, partner: partners })
        .from(products)
        .innerJoin(partners, eq(products.partnerId, partners.id))
        .where(eq(products.id, id))
        .limit(1);
      if (!r) throw appError('NOT_FOUND', '产品不存在');
      if (status === 'published') {
        const problems = publishProblems(toEngineProduct(r.product, r.partner.legalName), {
          partnerStatus: r.partner.status,
          allowedHosts: r.partner.allowedHosts,
          targetUrl: r.product.targetUrl,
        });
        if (problems.length > 0)
          throw appError('VALIDATION_FAILED', `不能上架：${problems.map((p) => p.text).join('；')}`, {
            problems,
          });
      }
      if (r.product.status === status) return;
      await tx.update(products).set({ status, updatedAt: new Date() }).where(eq(products.id, id));
      await recordAudit(db, actor, {
        action: 'status',
        entity: 'product',
        entityId: id,
        before: { status: r.product.status },
        after: { status },
      });
    });
    this.d.matching.invalidateCatalog();
    return this.getProduct(id);
  }

  /* —— rule tester —— */

  /**
   * The matching engine on a sample profile, against the live catalogue and today's counters, as a
   * fresh applicant (no history): nothing is reserved or stored. Products that are not live (draft,
   * paused, suspended lender) are listed as excluded with that reason and the rules they would fail.
   */
  async ruleTest(body: RuleTesterBody): Promise<RuleTesterData> {
    const now = body.at ? new Date(body.at) : new Date();
    const channel = body.channelCode ? await this.d.findChannel(body.channelCode) : null;
    if (body.channelCode && !channel) validationError(`渠道 ${body.channelCode} 不存在`, 'channelCode');
    const profile = testerProfile(body.profile);
    const [catalog, counters, others] = await Promise.all([
      this.d.matching.catalog(),
      todayCounters(this.d.db, shanghaiDate(now)),
      this.d.db
        .select({ product: products, legalName: partners.legalName, partnerStatus: partners.status })
        .from(products)
        .innerJoin(partners, eq(products.partnerId, partners.id))
        .where(not(and(eq(products.status, 'published'), eq(partners.status, 'active'))!)),
    ]);
    const result = match(
      profile,
      catalog.map((e) => e.engine),
      counters,
      { applications: [] },
      { now, ...this.d.matchConfig },
    );
    const byId = new Map(catalog.map((e) => [e.engine.id, e]));
    const age = profileAge(profile, now);
    const excluded: RuleTesterData['excluded'] = result.excluded.map((x) => {
      const e = byId.get(x.productId)!;
      return {
        productId: x.productId,
        name: e.row.productName,
        lender: e.partner.legalName,
        reasons: x.reasons.map((r) => ({ code: r.code, text: r.text })),
      };
    });
    for (const o of others) {
      const status =
        o.partnerStatus !== 'active'
          ? { code: 'PARTNER_SUSPENDED', text: '合作机构已暂停合作' }
          : {
              code: 'NOT_PUBLISHED',
              text: o.product.status === 'paused' ? '产品已下架' : '产品未上架（草稿）',
            };
      const rules = ruleReasons(profile, age, o.product.rules);
      excluded.push({
        productId: String(o.product.id),
        name: o.product.productName,
        lender: o.legalName,
        reasons: [status, ...rules.map((r) => ({ code: r.code, text: r.text }))],
      });
    }
    excluded.sort((a, b) => Number(a.productId) - Number(b.productId));
    return {
      at: now.toISOString(),
      age,
      notes: channelNotes(channel, body.profile.workCityCode),
      matched: result.eligible.map((r) => ({
        productId: r.productId,
        name: r.product.productName,
        lender: r.product.partnerLegalName,
        rank: r.rank,
        reasons: r.matched.map((m) => ({ rule: m.rule, text: m.text })),
      })),
      excluded,
    };
  }
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

function stripUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Audit before/after with only the fields that changed (updatedAt aside). */
function changedOnly(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (key === 'updatedAt') continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    b[key] = before[key];
    a[key] = after[key];
  }
  return { before: b, after: a };
}
