import {
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
import { shanghaiDate } from '@lm/shared/time';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import { match, profileAge, ruleReasons } from '../matching/match.ts';
import { toEngineProduct } from '../matching/product-row.ts';
import type { MatchService } from '../matching/service.ts';
import { changedOnly, stripUndefined, validationError } from './edits.ts';
import { partnerOr404 } from './partners.ts';
import type { AdminCatalogRepository, PartnerRow, ProductListRow } from './repository.ts';
import { channelNotes, publishProblems, targetUrlProblem, testerProfile } from './rules.ts';

export interface AdminProductsDeps {
  repo: AdminCatalogRepository;
  matching: MatchService;
  matchConfig: { maxLendersPerPeriod: number; reapplyLockoutDays: number; periodDays: number };
  findChannel: (code: string) => Promise<{ channelStatus: number; excludeCityCodes: string[] } | null>;
}

/** Products and the rule tester for the console (issue 7). Every change is audited. */
export class AdminProductsService {
  constructor(private readonly d: AdminProductsDeps) {}

  private toItem(r: ProductListRow): ProductItem {
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
    if (q.sort && !(PRODUCT_SORTS as readonly string[]).includes(q.sort))
      validationError(`不支持按 ${q.sort} 排序，可选：${PRODUCT_SORTS.join('、')}`);
    const sortKey = (q.sort ?? 'id') as (typeof PRODUCT_SORTS)[number];
    const { total, rows } = await this.d.repo.listProducts(
      { q: q.q, partnerId: q.partnerId, status: q.status, linkType: q.linkType },
      sortKey,
      q.order === 'asc' ? 'asc' : 'desc',
      q,
      shanghaiDate(now),
    );
    return {
      total,
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map((r) => this.toItem(r)),
    };
  }

  async getProduct(id: number, now = new Date()): Promise<ProductDetail> {
    const r = await this.d.repo.findProductWithCounters(id, shanghaiDate(now));
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

  private async checkTarget(repo: AdminCatalogRepository, body: ProductBody): Promise<PartnerRow> {
    const partner = await partnerOr404(repo, body.partnerId).catch(() =>
      validationError('所选合作机构不存在', 'partnerId'),
    );
    const problem = targetUrlProblem(body.targetUrl, partner.allowedHosts);
    if (problem) validationError(problem, 'targetUrl');
    return partner;
  }

  async createProduct(actor: Actor, body: ProductCreateBody): Promise<ProductDetail> {
    const id = await this.d.repo.transaction(async (tx) => {
      await this.checkTarget(tx, body);
      if (await tx.productCodeTaken(body.code)) validationError(`产品编码 ${body.code} 已存在`, 'code');
      const created = await tx.insertProduct({
        code: body.code,
        ...this.productValues(body),
        status: 'draft',
      });
      await tx.recordAudit(actor, {
        action: 'create',
        entity: 'product',
        entityId: created.id,
        after: created,
      });
      return created.id;
    });
    this.d.matching.invalidateCatalog();
    return this.getProduct(id);
  }

  /**
   * Replaces a product's settings. A published product stays published only if it may still be
   * published: an edit that breaks canPublish (e.g. APR above 24 %) is refused with the reasons.
   */
  async updateProduct(actor: Actor, id: number, body: ProductBody): Promise<ProductDetail> {
    await this.d.repo.transaction(async (tx) => {
      const before = await tx.findProduct(id);
      if (!before) throw appError('NOT_FOUND', '产品不存在');
      const partner = await this.checkTarget(tx, body);
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
      const after = await tx.updateProduct(id, { ...values, updatedAt: new Date() });
      await tx.recordAudit(actor, {
        action: 'update',
        entity: 'product',
        entityId: id,
        ...changedOnly(before, after),
      });
    });
    this.d.matching.invalidateCatalog();
    return this.getProduct(id);
  }

  /** draft / published / paused; publishing is refused with every reason (canPublish and more). */
  async setProductStatus(actor: Actor, id: number, status: ProductStatusValue): Promise<ProductDetail> {
    await this.d.repo.transaction(async (tx) => {
      const r = await tx.findProductWithPartner(id);
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
      await tx.setProductStatus(id, status, new Date());
      await tx.recordAudit(actor, {
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
      this.d.repo.todayCounters(shanghaiDate(now)),
      this.d.repo.notLiveProducts(),
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
