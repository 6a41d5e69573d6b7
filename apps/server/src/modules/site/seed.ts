import {
  APP_INDEX_ICON_CODE,
  type AppIndexIcon,
  DOWNLOAD_PAGE_CODE,
  type DownloadPageConfig,
  HOME_DIALOG_PLACEMENT,
} from '@lm/shared/schemas/site';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { appVersions, banners, pageConfigs } from '../../db/schema.ts';

type NewBanner = Omit<typeof banners.$inferInsert, 'id' | 'createdAt'>;

/**
 * Demo banners. Images are SVGs the H5 serves itself (apps/web/public/banners), targets are pages
 * of the H5: no external address.
 */
export const DEMO_BANNERS: NewBanner[] = [
  {
    placement: HOME_DIALOG_PLACEMENT,
    title: '新人专享：完善资料，多家持牌机构一次比选',
    imageUrl: '/banners/home-dialog.svg',
    targetUrl: '/advertising',
    channelCodes: null,
    enabled: true,
    sort: 10,
    startsAt: new Date('2026-01-01T00:00:00Z'),
    endsAt: null,
  },
  {
    placement: HOME_DIALOG_PLACEMENT,
    title: '下载App，随时查看申请进度',
    imageUrl: '/banners/download-app.svg',
    targetUrl: '/download',
    channelCodes: ['demo-fenqile', 'demo-formprocess3'],
    enabled: true,
    sort: 0,
    startsAt: new Date('2026-01-01T00:00:00Z'),
    endsAt: null,
  },
];

/** Home shortcuts (GET /api/pageConfig/getAppIndexIconList); icons are SVGs of the H5. */
export const DEMO_ICONS: AppIndexIcon[] = [
  { key: 'record', title: '申请记录', icon: '/icons/record.svg', path: '/my/application-record' },
  { key: 'news', title: '每日资讯', icon: '/icons/news.svg', path: '/audit-new' },
  { key: 'safety', title: '安全中心', icon: '/icons/safety.svg', path: '/my/safe-center' },
  { key: 'download', title: '下载App', icon: '/icons/download.svg', path: '/download' },
];

export const DEMO_DOWNLOAD_PAGE: DownloadPageConfig = {
  title: '下载App，借款更方便',
  subtitle: '申请进度实时提醒，额度变化第一时间知道',
  features: ['申请进度实时查看', '还款提醒不逾期', '账户安全保护'],
};

/** Demo app versions (fictional download addresses on example.com). */
export const DEMO_APP_VERSIONS: (typeof appVersions.$inferInsert)[] = [
  {
    platform: 'android',
    version: '2.3.0',
    build: 230,
    downloadUrl: 'https://download.example.com/app/loan-market-2.3.0.apk',
    notes: '优化申请流程；新增申请进度提醒',
    forceUpdate: false,
    publishedAt: new Date('2026-03-01T02:00:00Z'),
  },
  {
    platform: 'ios',
    version: '2.3.0',
    build: 230,
    downloadUrl: 'https://download.example.com/app/ios',
    notes: '优化申请流程；新增申请进度提醒',
    forceUpdate: false,
    publishedAt: new Date('2026-03-01T02:00:00Z'),
  },
];

/**
 * Idempotent: banners are added when no banner of the same placement and title exists (under an
 * advisory lock, so two instances starting together add each once); page configurations and app
 * versions are added when absent and never overwrite what an operator changed.
 */
export async function seedSiteDemo(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('seed:site-banners', 0))`);
    for (const banner of DEMO_BANNERS) {
      const [existing] = await tx
        .select({ id: banners.id })
        .from(banners)
        .where(and(eq(banners.placement, banner.placement), eq(banners.title, banner.title)))
        .limit(1);
      if (!existing) await tx.insert(banners).values(banner);
    }
  });
  await db
    .insert(pageConfigs)
    .values([
      { code: APP_INDEX_ICON_CODE, config: { icons: DEMO_ICONS } },
      { code: DOWNLOAD_PAGE_CODE, config: { ...DEMO_DOWNLOAD_PAGE } },
    ])
    .onConflictDoNothing({ target: pageConfigs.code });
  await db
    .insert(appVersions)
    .values(DEMO_APP_VERSIONS)
    .onConflictDoNothing({ target: [appVersions.platform, appVersions.version] });
}
