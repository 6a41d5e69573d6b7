import { parseChannelFlags } from '@lm/shared/channel';
import {
  CHANNEL_SORTS,
  type ChannelAdminDetail,
  type ChannelDraft,
  type ChannelListData,
  type ChannelListQuery,
  type ChannelPreviewBody,
  type CreateChannelBody,
  type CreateRouteCodeBody,
  type RouteCodeItem,
  type RouteCodeMissList,
  targetHost,
} from '@lm/shared/schemas/admin-channels';
import { shanghaiDate } from '@lm/shared/time';
import type { FastifyBaseLogger } from 'fastify';
import type { Actor } from '../../lib/actor.ts';
import type { KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { signPreview } from '../channels/preview.ts';
import type { ChannelRow } from '../channels/rules.ts';
import type { ChannelService } from '../channels/service.ts';
import type { AdminChannelsRepository, ChannelOperator, RouteCodeMiss, RouteCodeRow } from './repository.ts';
import { channelSnapshot, disallowedTargets, draftColumns, flagsValue, splitFlags } from './rules.ts';

export const CHANNEL_NOT_FOUND = '渠道不存在';
export const ROUTE_CODE_NOT_FOUND = '该渠道下没有这个路由码';

export interface AdminChannelDeps {
  repo: AdminChannelsRepository;
  ring: KeyRing;
  channels: ChannelService;
  log: FastifyBaseLogger;
}

/** A route code as the audit log keeps it. */
function routeCodeSnapshot(r: RouteCodeRow) {
  return {
    routeCode: r.routeCode,
    planTargetUrl: r.planTargetUrl,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
  };
}

/** A route code for the console, with its 失效访问 (failed exchanges counted, issue 44.19). */
function routeCodeItem(r: RouteCodeRow, miss: RouteCodeMiss | undefined): RouteCodeItem {
  return {
    ...routeCodeSnapshot(r),
    missCount: miss?.hits ?? 0,
    lastMissAt: miss ? miss.lastSeenAt.toISOString() : null,
  };
}

/** Unique-violation from PostgreSQL or PGlite. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** Console channel management: every change is one transaction with its audit entry. */
/** What the console's list and detail both show of a channel: identity, status, skin, flags, A/B skins. */
function channelHead(row: ChannelRow) {
  const { skin, flags } = splitFlags(row.flags);
  return {
    id: row.id,
    adChannelCode: row.adChannelCode,
    name: row.name,
    channelStatus: row.channelStatus,
    linkType: row.linkType,
    skin,
    flags,
    skinArms: row.skinArms && row.skinArms.length >= 2 ? row.skinArms : null,
  };
}

export class AdminChannelService {
  constructor(private readonly d: AdminChannelDeps) {}

  async list(q: ChannelListQuery): Promise<ChannelListData> {
    const sortKey = q.sort ?? 'updatedAt';
    if (!(CHANNEL_SORTS as readonly string[]).includes(sortKey))
      throw appError('VALIDATION_FAILED', `不支持按 ${sortKey} 排序，可选 ${CHANNEL_SORTS.join('、')}`);
    const { total, rows } = await this.d.repo.listForConsole(
      { q: q.q, status: q.status, linkType: q.linkType },
      sortKey as (typeof CHANNEL_SORTS)[number],
      q.order === 'asc' ? 'asc' : 'desc',
      q,
      shanghaiDate(),
    );
    return {
      total,
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map(({ row, clicks: n, codes: c }) => {
        return {
          ...channelHead(row),
          theme: parseChannelFlags(row.flags).theme,
          routeCodeCount: Number(c ?? 0),
          todayClicks: Number(n ?? 0),
          updatedAt: row.updatedAt.toISOString(),
        };
      }),
    };
  }

  private async row(repo: AdminChannelsRepository, id: number): Promise<ChannelRow> {
    const row = await repo.findChannel(id);
    if (!row) throw appError('NOT_FOUND', CHANNEL_NOT_FOUND, { id });
    return row;
  }

  async get(id: number): Promise<ChannelAdminDetail> {
    const row = await this.row(this.d.repo, id);
    const codes = await this.d.repo.routeCodesOf(row.adChannelCode);
    const operator = row.operatorId === null ? null : await this.d.repo.operatorById(row.operatorId);
    return this.detail(
      row,
      codes,
      operator ?? null,
      await this.d.repo.missesOf(codes.map((c) => c.routeCode)),
    );
  }

  /** The route codes ad links still carry although they do not exchange, the latest first (issue 44.19). */
  async routeCodeMisses(page: { page: number; pageSize: number }): Promise<RouteCodeMissList> {
    const { total, rows } = await this.d.repo.listMisses(page);
    return {
      total,
      page: page.page,
      pageSize: page.pageSize,
      list: rows.map((r) => ({
        routeCode: r.routeCode,
        state: r.status === null ? 'missing' : r.status === 1 ? 'enabled' : 'disabled',
        adChannelCode: r.adChannelCode,
        channelId: r.channelId,
        channelName: r.channelName,
        hits: r.hits,
        firstSeenAt: r.firstSeenAt.toISOString(),
        lastSeenAt: r.lastSeenAt.toISOString(),
      })),
    };
  }

  /** The operator a draft names (null: the configured one); 400 naming the field when there is none such. */
  private async operatorOf(
    repo: AdminChannelsRepository,
    code: string | null | undefined,
  ): Promise<ChannelOperator | null> {
    if (!code) return null;
    const operator = await repo.operatorByCode(code);
    if (!operator) {
      const message = `运营主体 ${code} 不存在，请先在“运营主体”中创建`;
      throw appError('VALIDATION_FAILED', message, { fields: [{ field: 'operatorCode', message }] });
    }
    return operator;
  }

  private detail(
    row: ChannelRow,
    codes: RouteCodeRow[],
    op: ChannelOperator | null,
    misses: Map<string, RouteCodeMiss>,
  ): ChannelAdminDetail {
    return {
      ...channelHead(row),
      unknownFlags: splitFlags(row.flags).unknownFlags,
      excludeCityCodes: row.excludeCityCodes,
      planTargetUrl: row.planTargetUrl,
      pageTitle: row.pageTitle,
      pageIcon: row.pageIcon,
      needsLocation: row.needsLocation,
      trackReport: row.trackReport ?? null,
      allowedHosts: row.allowedHosts,
      operator: op
        ? {
            code: op.code,
            companyName: op.companyName,
            shortName: op.shortName,
            filingNumber: op.filingNumber,
          }
        : null,
      routeCodes: codes.map((c) => routeCodeItem(c, misses.get(c.routeCode))),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /** Drops the cached configuration (every instance, through Redis when configured). */
  private async invalidate(code: string, actor?: Actor): Promise<void> {
    try {
      await this.d.channels.invalidate(code);
    } catch (err) {
      // The change is committed; the cached value expires within its TTL.
      (actor?.log ?? this.d.log).warn(
        { err: { message: (err as Error).message } },
        'channel cache invalidation failed',
      );
    }
  }

  async create(actor: Actor, body: CreateChannelBody): Promise<ChannelAdminDetail> {
    let created: { row: ChannelRow; operator: ChannelOperator | null };
    try {
      created = await this.d.repo.transaction(async (tx) => {
        const operator = await this.operatorOf(tx, body.operatorCode);
        const row = await tx.insertChannel({
          adChannelCode: body.adChannelCode,
          channelStatus: body.channelStatus,
          ...draftColumns(body, operator?.id ?? null),
        });
        await tx.recordAudit(actor, {
          action: 'create',
          entity: 'channel',
          entityId: row.id,
          before: null,
          after: channelSnapshot(row, operator?.code ?? null),
        });
        return { row, operator };
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw appError('VALIDATION_FAILED', `渠道码 ${body.adChannelCode} 已存在`, {
          fields: [{ field: 'adChannelCode', message: `渠道码 ${body.adChannelCode} 已存在` }],
        });
      throw err;
    }
    // An unknown code may have been cached as "no such channel".
    await this.invalidate(created.row.adChannelCode, actor);
    return this.detail(created.row, [], created.operator, new Map());
  }

  async update(actor: Actor, id: number, body: ChannelDraft): Promise<ChannelAdminDetail> {
    const { row, codes, operator } = await this.d.repo.transaction(async (tx) => {
      const before = await this.row(tx, id);
      const operator = await this.operatorOf(tx, body.operatorCode);
      const previous = before.operatorId === null ? null : await tx.operatorById(before.operatorId);
      const codes = await tx.routeCodesUnordered(before.adChannelCode);
      const bad = disallowedTargets(
        codes.map((c) => c.planTargetUrl),
        body.allowedHosts,
      );
      if (bad.length)
        throw appError(
          'VALIDATION_FAILED',
          `路由码的计划落地页仍在使用域名 ${bad.join('、')}，请先修改路由码或保留该域名`,
        );
      const row = await tx.updateChannel(id, {
        ...draftColumns(body, operator?.id ?? null),
        channelStatus: body.channelStatus,
        updatedAt: new Date(),
      });
      await tx.recordAudit(actor, {
        action: 'update',
        entity: 'channel',
        entityId: id,
        before: channelSnapshot(before, previous?.code ?? null),
        after: channelSnapshot(row, operator?.code ?? null),
      });
      return { row, codes, operator };
    });
    await this.invalidate(row.adChannelCode, actor);
    return this.detail(row, codes, operator, await this.d.repo.missesOf(codes.map((c) => c.routeCode)));
  }

  async setStatus(actor: Actor, id: number, channelStatus: 0 | 1): Promise<ChannelAdminDetail> {
    const row = await this.d.repo.transaction(async (tx) => {
      const before = await this.row(tx, id);
      const row = await tx.updateChannel(id, { channelStatus, updatedAt: new Date() });
      await tx.recordAudit(actor, {
        action: 'status',
        entity: 'channel',
        entityId: id,
        before: { adChannelCode: before.adChannelCode, channelStatus: before.channelStatus },
        after: { adChannelCode: row.adChannelCode, channelStatus: row.channelStatus },
      });
      return row;
    });
    await this.invalidate(row.adChannelCode, actor);
    return this.get(row.id);
  }

  private checkTarget(channel: ChannelRow, url: string | null | undefined) {
    const host = url ? targetHost(url) : null;
    if (host && !channel.allowedHosts.includes(host))
      throw appError('VALIDATION_FAILED', `计划落地页的域名 ${host} 不在该渠道允许跳转的域名中`, {
        fields: [{ field: 'planTargetUrl', message: `计划落地页的域名 ${host} 不在该渠道允许跳转的域名中` }],
      });
  }

  async addRouteCode(actor: Actor, id: number, body: CreateRouteCodeBody): Promise<RouteCodeItem> {
    let added: { item: RouteCodeItem; adChannelCode: string };
    try {
      added = await this.d.repo.transaction(async (tx) => {
        const channel = await this.row(tx, id);
        this.checkTarget(channel, body.planTargetUrl);
        const row = await tx.insertRouteCode({
          routeCode: body.routeCode,
          adChannelCode: channel.adChannelCode,
          planTargetUrl: body.planTargetUrl ?? null,
          status: body.status,
        });
        await tx.recordAudit(actor, {
          action: 'create',
          entity: 'route_code',
          entityId: body.routeCode,
          before: null,
          after: { ...routeCodeSnapshot(row), adChannelCode: channel.adChannelCode },
        });
        const misses = await tx.missesOf([row.routeCode]);
        return { item: routeCodeItem(row, misses.get(row.routeCode)), adChannelCode: channel.adChannelCode };
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw appError('VALIDATION_FAILED', `路由码 ${body.routeCode} 已被使用`, {
          fields: [{ field: 'routeCode', message: `路由码 ${body.routeCode} 已被使用` }],
        });
      throw err;
    }
    // A route code's exchange is kept beside its channel's configuration (the channel pages): an unknown code
    // may have been kept as unknown.
    await this.invalidate(added.adChannelCode, actor);
    return added.item;
  }

  private async routeCodeOf(
    repo: AdminChannelsRepository,
    channel: ChannelRow,
    routeCode: string,
  ): Promise<RouteCodeRow> {
    const row = await repo.findRouteCode(channel.adChannelCode, routeCode);
    if (!row) throw appError('NOT_FOUND', ROUTE_CODE_NOT_FOUND, { routeCode });
    return row;
  }

  async updateRouteCode(
    actor: Actor,
    id: number,
    routeCode: string,
    body: Omit<CreateRouteCodeBody, 'routeCode'>,
  ): Promise<RouteCodeItem> {
    const updated = await this.d.repo.transaction(async (tx) => {
      const channel = await this.row(tx, id);
      const before = await this.routeCodeOf(tx, channel, routeCode);
      this.checkTarget(channel, body.planTargetUrl);
      const row = await tx.updateRouteCode(routeCode, {
        planTargetUrl: body.planTargetUrl ?? null,
        status: body.status,
      });
      await tx.recordAudit(actor, {
        action: 'update',
        entity: 'route_code',
        entityId: routeCode,
        before: { ...routeCodeSnapshot(before), adChannelCode: channel.adChannelCode },
        after: { ...routeCodeSnapshot(row), adChannelCode: channel.adChannelCode },
      });
      const misses = await tx.missesOf([routeCode]);
      return { item: routeCodeItem(row, misses.get(routeCode)), adChannelCode: channel.adChannelCode };
    });
    await this.invalidate(updated.adChannelCode, actor);
    return updated.item;
  }

  async deleteRouteCode(actor: Actor, id: number, routeCode: string): Promise<{ deleted: true }> {
    const adChannelCode = await this.d.repo.transaction(async (tx) => {
      const channel = await this.row(tx, id);
      const before = await this.routeCodeOf(tx, channel, routeCode);
      await tx.deleteRouteCode(routeCode);
      await tx.recordAudit(actor, {
        action: 'delete',
        entity: 'route_code',
        entityId: routeCode,
        before: { ...routeCodeSnapshot(before), adChannelCode: channel.adChannelCode },
        after: null,
      });
      return channel.adChannelCode;
    });
    await this.invalidate(adChannelCode, actor);
    return { deleted: true };
  }

  /** A signed token for the H5 to show the unsaved draft (nothing stored). */
  async preview(body: ChannelPreviewBody): Promise<{ token: string; expiresAt: string }> {
    const skin = body.previewSkin ?? body.skin;
    const operator = await this.operatorOf(this.d.repo, body.operatorCode);
    // The page icon (possibly a long data: URI) does not show in the framed page: left out of the token.
    const { token, expiresAt } = signPreview(
      this.d.ring,
      {
        adChannelCode: body.adChannelCode ?? '',
        name: body.name,
        channelStatus: 1,
        linkType: body.linkType,
        flags: flagsValue(body.skin, body.flags),
        excludeCityCodes: body.excludeCityCodes,
        planTargetUrl: body.planTargetUrl ?? null,
        pageTitle: body.pageTitle ?? null,
        pageIcon: null,
        needsLocation: body.needsLocation,
        trackReport: body.trackReport ?? null,
        allowedHosts: body.allowedHosts,
        operator: operator
          ? { companyName: operator.companyName, filingNumber: operator.filingNumber }
          : null,
      },
      skin,
    );
    return { token, expiresAt: expiresAt.toISOString() };
  }
}
