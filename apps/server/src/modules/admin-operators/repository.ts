import type { OPERATOR_SORTS } from '@lm/shared/schemas/operators';
import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channels, operators } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import type { OperatorRow } from '../operators/repository.ts';

export type OperatorInsert = typeof operators.$inferInsert;

const SORT_COLUMNS = {
  id: operators.id,
  code: operators.code,
  companyName: operators.companyName,
  updatedAt: operators.updatedAt,
} as const;

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The console's operators (ADR 057): their queries; the rules are the service's. */
export class AdminOperatorsRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: AdminOperatorsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AdminOperatorsRepository(tx as unknown as Db)));
  }

  /** An audit entry in this repository's transaction (the change and its record commit together). */
  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /** One page of operators with how many channels name each, and how many match. */
  async list(
    q: string | undefined,
    sort: (typeof OPERATOR_SORTS)[number],
    order: 'asc' | 'desc',
    page: { page: number; pageSize: number },
  ): Promise<{ total: number; rows: { row: OperatorRow; channels: number }[] }> {
    const conds: SQL[] = [];
    if (q) {
      const p = likePattern(q);
      conds.push(
        or(ilike(operators.code, p), ilike(operators.companyName, p), ilike(operators.shortName, p))!,
      );
    }
    const where = conds.length ? and(...conds) : undefined;
    const used = this.db
      .select({ id: channels.operatorId, n: sql<number>`count(*)::int`.as('channels_n') })
      .from(channels)
      .groupBy(channels.operatorId)
      .as('operator_channels');
    const column = SORT_COLUMNS[sort];
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ row: operators, channels: used.n })
        .from(operators)
        .leftJoin(used, eq(used.id, operators.id))
        .where(where)
        .orderBy(order === 'asc' ? asc(column) : desc(column), desc(operators.id))
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize),
      this.db.select({ n: count() }).from(operators).where(where),
    ]);
    return {
      total: total?.n ?? 0,
      rows: rows.map((r) => ({ row: r.row, channels: Number(r.channels ?? 0) })),
    };
  }

  /** Every operator's code and names, by code (the channel form's choices). */
  choices(): Promise<Pick<OperatorRow, 'code' | 'companyName' | 'shortName' | 'filingNumber'>[]> {
    return this.db
      .select({
        code: operators.code,
        companyName: operators.companyName,
        shortName: operators.shortName,
        filingNumber: operators.filingNumber,
      })
      .from(operators)
      .orderBy(asc(operators.code));
  }

  async find(id: number): Promise<OperatorRow | undefined> {
    const [row] = await this.db.select().from(operators).where(eq(operators.id, id)).limit(1);
    return row;
  }

  /** The channels that name the operator `id`, by code. */
  channelsOf(id: number): Promise<{ id: number; adChannelCode: string; name: string }[]> {
    return this.db
      .select({ id: channels.id, adChannelCode: channels.adChannelCode, name: channels.name })
      .from(channels)
      .where(eq(channels.operatorId, id))
      .orderBy(asc(channels.adChannelCode));
  }

  async insert(values: OperatorInsert): Promise<OperatorRow> {
    const [row] = await this.db.insert(operators).values(values).returning();
    return row!;
  }

  async update(id: number, values: Partial<OperatorInsert>): Promise<OperatorRow> {
    const [row] = await this.db.update(operators).set(values).where(eq(operators.id, id)).returning();
    return row!;
  }
}
