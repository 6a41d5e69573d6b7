import {
  type CreateOperatorBody,
  OPERATOR_SORTS,
  type OperatorChoices,
  type OperatorDetail,
  type OperatorFields,
  type OperatorItem,
  type OperatorListData,
  type OperatorListQuery,
} from '@lm/shared/schemas/operators';
import type { FastifyBaseLogger } from 'fastify';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import type { ChannelService } from '../channels/service.ts';
import type { OperatorRow } from '../operators/repository.ts';
import type { Operator } from '../operators/rules.ts';
import type { AdminOperatorsRepository } from './repository.ts';

export const OPERATOR_NOT_FOUND = '运营主体不存在';

export interface AdminOperatorDeps {
  repo: AdminOperatorsRepository;
  /** Drops the cached configuration (footer) of each channel naming an edited operator. */
  channels: Pick<ChannelService, 'invalidate'>;
  /** The configured operator (OPERATOR_*), shown as the choice of a channel without one. */
  fallback: Operator;
  log: FastifyBaseLogger;
}

/** Unique-violation from PostgreSQL or PGlite. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** The audit log's before/after of an operator: what people read and receive, and its code. */
export function operatorSnapshot(row: OperatorRow): Record<string, unknown> {
  const { createdAt: _c, updatedAt: _u, ...rest } = row;
  return rest;
}

function item(row: OperatorRow, channelCount: number): OperatorItem {
  return {
    id: row.id,
    code: row.code,
    companyName: row.companyName,
    shortName: row.shortName,
    filingNumber: row.filingNumber,
    smsSignature: row.smsSignature,
    address: row.address,
    servicePhone: row.servicePhone,
    email: row.email,
    channelCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Console operators (ADR 057): every change is one transaction with its audit entry; an edit drops the
 * cached configuration of every channel that names the operator (its footer, on every instance), and the
 * agreements, privacy policy and SMS read the record afresh: the next visitor of those channels reads the
 * new record. Consents already given keep the text they recorded.
 */
export class AdminOperatorService {
  constructor(private readonly d: AdminOperatorDeps) {}

  async list(q: OperatorListQuery): Promise<OperatorListData> {
    const sortKey = q.sort ?? 'updatedAt';
    if (!(OPERATOR_SORTS as readonly string[]).includes(sortKey))
      throw appError('VALIDATION_FAILED', `不支持按 ${sortKey} 排序，可选 ${OPERATOR_SORTS.join('、')}`);
    const { total, rows } = await this.d.repo.list(
      q.q,
      sortKey as (typeof OPERATOR_SORTS)[number],
      q.order === 'asc' ? 'asc' : 'desc',
      q,
    );
    return {
      total,
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map(({ row, channels }) => item(row, channels)),
    };
  }

  async choices(): Promise<OperatorChoices> {
    return {
      list: await this.d.repo.choices(),
      fallback: {
        companyName: this.d.fallback.companyName,
        shortName: this.d.fallback.shortName,
        filingNumber: this.d.fallback.filingNumber,
      },
    };
  }

  private async row(repo: AdminOperatorsRepository, id: number): Promise<OperatorRow> {
    const row = await repo.find(id);
    if (!row) throw appError('NOT_FOUND', OPERATOR_NOT_FOUND, { id });
    return row;
  }

  async get(id: number): Promise<OperatorDetail> {
    const row = await this.row(this.d.repo, id);
    const channels = await this.d.repo.channelsOf(id);
    return { ...item(row, channels.length), channels };
  }

  async create(actor: Actor, body: CreateOperatorBody): Promise<OperatorDetail> {
    let created: OperatorRow;
    try {
      created = await this.d.repo.transaction(async (tx) => {
        const row = await tx.insert({ ...body });
        await tx.recordAudit(actor, {
          action: 'create',
          entity: 'operator',
          entityId: row.code,
          before: null,
          after: operatorSnapshot(row),
        });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw appError('VALIDATION_FAILED', `运营主体编码 ${body.code} 已存在`, {
          fields: [{ field: 'code', message: `运营主体编码 ${body.code} 已存在` }],
        });
      throw err;
    }
    return { ...item(created, 0), channels: [] };
  }

  async update(actor: Actor, id: number, body: OperatorFields): Promise<OperatorDetail> {
    const { row, channels } = await this.d.repo.transaction(async (tx) => {
      const before = await this.row(tx, id);
      const row = await tx.update(id, { ...body, updatedAt: new Date() });
      await tx.recordAudit(actor, {
        action: 'update',
        entity: 'operator',
        entityId: row.code,
        before: operatorSnapshot(before),
        after: operatorSnapshot(row),
      });
      return { row, channels: await tx.channelsOf(id) };
    });
    // Committed: every channel naming it shows the new record from its next h5Config (and page) on.
    for (const c of channels) await this.invalidate(c.adChannelCode, actor);
    return { ...item(row, channels.length), channels };
  }

  private async invalidate(code: string, actor: Actor): Promise<void> {
    try {
      await this.d.channels.invalidate(code);
    } catch (err) {
      // The change is committed; the cached value expires within its TTL.
      (actor.log ?? this.d.log).warn(
        { err: { message: (err as Error).message } },
        'channel cache invalidation failed',
      );
    }
  }
}
