import { getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { operators } from '../../db/schema.ts';

type NewOperator = Omit<typeof operators.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * Fictional operators of the demo channels (docs/demo.md): each channel's footer, agreements, privacy policy
 * and SMS signature name one of them (ADR 057). Seeded outside production, before the channels.
 */
export const DEMO_OPERATORS = [
  {
    code: 'xinghe',
    companyName: '北京星河融信信息技术有限公司',
    shortName: '星河融信',
    filingNumber: '京ICP备2026000001号',
    smsSignature: '星河融信',
    address: '北京市朝阳区望京街道阜通东大街 6 号方恒国际中心 B 座 18 层',
    servicePhone: '400-610-2026',
    email: 'privacy@xinghe-rx.example.cn',
  },
  {
    code: 'yunfan',
    companyName: '上海云帆数科网络科技有限公司',
    shortName: '云帆数科',
    filingNumber: '沪ICP备2026000002号',
    smsSignature: '云帆数科',
    address: '上海市浦东新区张江镇博云路 2 号浦软大厦 9 层',
    servicePhone: '400-820-2026',
    email: 'privacy@yunfan-sk.example.cn',
  },
  {
    code: 'qianhai',
    companyName: '深圳前海融通金融信息服务有限公司',
    shortName: '前海融通',
    filingNumber: '粤ICP备2026000003号',
    smsSignature: '前海融通',
    address: '深圳市前海深港合作区南山街道梦海大道 5035 号前海华润金融中心 T5 写字楼 20 层',
    servicePhone: '400-830-2026',
    email: 'privacy@qianhai-rt.example.cn',
  },
  {
    code: 'hexin',
    companyName: '杭州和信数据服务有限公司',
    shortName: '和信数据',
    filingNumber: '浙ICP备2026000004号',
    smsSignature: '和信数据',
    address: '浙江省杭州市西湖区文三路 90 号东部软件园 6 号楼 5 层',
    servicePhone: '400-850-2026',
    email: 'privacy@hexin-data.example.cn',
  },
] as const satisfies readonly NewOperator[];

export type DemoOperatorCode = (typeof DEMO_OPERATORS)[number]['code'];

/** Upserts the demo operators (re-seeding restores their records); answers each one's id by code. */
export async function seedDemoOperators(db: Db): Promise<Map<string, number>> {
  const columns = getTableColumns(operators);
  const set = Object.fromEntries(
    Object.entries(columns)
      .filter(([key]) => !['id', 'code', 'createdAt'].includes(key))
      .map(([key, col]) => [key, key === 'updatedAt' ? sql`now()` : sql.raw(`excluded.${col.name}`)]),
  );
  const rows = await db
    .insert(operators)
    .values(DEMO_OPERATORS.map((o) => ({ ...o })))
    .onConflictDoUpdate({ target: operators.code, set })
    .returning({ id: operators.id, code: operators.code });
  return new Map(rows.map((r) => [r.code, r.id]));
}
