import {
  APP_INDEX_ICON_CODE,
  type AppDownloadManifest,
  type AppIndexIcon,
  type AppPlatform,
  type BannerData,
  HOME_DIALOG_PLACEMENT,
  type NewestVersionData,
  type PageConfigData,
  type TempLinkData,
  type TempLinkType,
} from '@lm/shared/schemas/site';
import { shanghaiDate } from '@lm/shared/time';
import type { FastifyBaseLogger } from 'fastify';
import type { Actor } from '../../lib/actor.ts';
import { blindIndex, encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type { Limiter } from '../limits/limiter.ts';
import type { ManifestStore } from './manifest-store.ts';
import type { SiteRepository } from './repository.ts';
import {
  buildManifest,
  iconsOf,
  maskOpenid,
  newestVersion,
  pickBanner,
  sameVersions,
  signTempLink,
  toVersionData,
} from './rules.ts';

export type ReportKind = 'type' | 'click' | 'h5device' | 'log' | 'userInfoLog' | 'download';

/** Hourly limits of the client reports, per device (hashed fingerprint) and per client IP. */
export const REPORT_LIMITS: Record<Exclude<ReportKind, 'userInfoLog'>, { device: number; ip: number }> = {
  type: { device: 300, ip: 1200 },
  click: { device: 300, ip: 1200 },
  h5device: { device: 20, ip: 600 },
  log: { device: 60, ip: 600 },
  download: { device: 20, ip: 300 },
};
/** GET /api/user/info/log per person per hour. */
export const USER_INFO_LOGS_PER_USER_PER_HOUR = 120;
/** Temporary links per client IP per hour. */
export const TEMP_LINKS_PER_IP_PER_HOUR = 60;
/** WeChat bindings per staff member per hour. */
export const OPENID_BINDS_PER_STAFF_PER_HOUR = 10;

const REPORT_WHAT: Record<ReportKind, string> = {
  type: '事件上报',
  click: '点击上报',
  h5device: '设备上报',
  log: '日志上报',
  userInfoLog: '日志上报',
  download: '下载上报',
};

export interface ReportContext {
  ip: string;
  userId: number | null;
  fingerprint: string | undefined;
  channelCode: string | undefined;
}

export interface SiteServiceDeps {
  repo: SiteRepository;
  ring: KeyRing;
  limiter: Limiter;
  manifest: ManifestStore;
  log: FastifyBaseLogger;
  /** Prefix of the temporary link (`${PUBLIC_BASE_URL}` or ''). */
  publicBaseUrl: string;
}

export class SiteService {
  /** Versions last written to the manifest (null before the first write). */
  private published: AppDownloadManifest | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly deviceKey: (fp: string) => string;
  private readonly linkKey: string;

  constructor(private readonly d: SiteServiceDeps) {
    this.deviceKey = (fp) => blindIndex(d.ring, 'device', fp);
    // Derived from the blind-index key (never rotated): no extra secret to configure.
    this.linkKey = blindIndex(d.ring, 'temp-link-key', 'v1');
  }

  // --- app versions and the download JSON -------------------------------------------------------

  private async versionRows(now: Date) {
    return this.d.repo.versionsPublishedBy(now);
  }

  async newest(platform: AppPlatform, now = new Date()): Promise<NewestVersionData> {
    const rows = await this.versionRows(now);
    // Rewrite the JSON when the versions changed since it was written (a release by another instance).
    const manifest = buildManifest(rows, now);
    if (!sameVersions(this.published, manifest)) void this.publishManifest().catch(() => {});
    const row = newestVersion(rows, platform, now);
    return row ? { ...toVersionData(row), manifestUrl: this.d.manifest.url } : null;
  }

  /**
   * Writes the app-download JSON from app_versions (at start, and when the versions changed). Writes
   * run one after another, each reading the versions when its turn comes; one that would write what
   * the file already holds is skipped (unless `force`).
   */
  publishManifest(force = false): Promise<void> {
    const run = async () => {
      const now = new Date();
      const manifest = buildManifest(await this.versionRows(now), now);
      if (!force && sameVersions(this.published, manifest)) return;
      try {
        await this.d.manifest.write(`${JSON.stringify(manifest, null, 2)}\n`);
        this.published = manifest;
      } catch (err) {
        this.d.log.warn({ err: { message: (err as Error).message } }, 'app-download JSON not written');
        throw err;
      }
    };
    const next = this.writing.catch(() => {}).then(run);
    this.writing = next;
    return next;
  }

  get manifestUrl(): string {
    return this.d.manifest.url;
  }

  // --- banners and page configuration ------------------------------------------------------------

  async homeDialogBanner(channel: string | undefined, now = new Date()): Promise<BannerData | null> {
    const rows = await this.d.repo.bannersShowing(HOME_DIALOG_PLACEMENT, now);
    const banner = pickBanner(rows, HOME_DIALOG_PLACEMENT, channel, now);
    return banner
      ? { id: banner.id, title: banner.title, imageUrl: banner.imageUrl, targetUrl: banner.targetUrl }
      : null;
  }

  async pageConfig(code: string): Promise<PageConfigData> {
    const row = await this.d.repo.findPageConfig(code);
    if (!row) throw appError('NOT_FOUND', `页面配置不存在：${code}`);
    return { code: row.code, config: row.config, updatedAt: row.updatedAt.toISOString() };
  }

  async appIndexIcons(): Promise<AppIndexIcon[]> {
    return iconsOf(await this.d.repo.pageConfigValue(APP_INDEX_ICON_CODE));
  }

  // --- temporary link ----------------------------------------------------------------------------

  async tempLink(
    type: TempLinkType,
    channel: string | undefined,
    ip: string,
    now = new Date(),
  ): Promise<TempLinkData> {
    await this.d.limiter.enforce(
      `temp-link:ip:${ip}`,
      TEMP_LINKS_PER_IP_PER_HOUR,
      { ms: 3600_000 },
      '获取链接',
    );
    const { token, expiresAt } = signTempLink(this.linkKey, { type, channel }, now);
    return {
      type,
      url: `${this.d.publicBaseUrl}/api/common/temp/link/open?token=${token}`,
      expiresAt: expiresAt.toISOString(),
    };
  }

  get tempLinkKey(): string {
    return this.linkKey;
  }

  // --- client reports -----------------------------------------------------------------------------

  /** Counts one report against the device and IP limits of its kind, then stores it. */
  async report(
    kind: ReportKind,
    name: string | null,
    payload: Record<string, unknown>,
    ctx: ReportContext,
  ): Promise<{ recorded: true }> {
    const deviceHash = ctx.fingerprint ? this.deviceKey(ctx.fingerprint) : null;
    const what = REPORT_WHAT[kind];
    if (kind === 'userInfoLog') {
      await this.d.limiter.enforce(
        `report:${kind}:user:${ctx.userId}`,
        USER_INFO_LOGS_PER_USER_PER_HOUR,
        { ms: 3600_000 },
        what,
      );
    } else {
      const limits = REPORT_LIMITS[kind];
      if (deviceHash) {
        await this.d.limiter.enforce(
          `report:${kind}:dev:${deviceHash}`,
          limits.device,
          { ms: 3600_000 },
          what,
        );
      }
      await this.d.limiter.enforce(`report:${kind}:ip:${ctx.ip}`, limits.ip, { ms: 3600_000 }, what);
    }
    await this.d.repo.insertClientReport({
      kind,
      name,
      payload,
      userId: ctx.userId,
      deviceHash,
      channelCode: ctx.channelCode ?? null,
      day: shanghaiDate(),
    });
    return { recorded: true };
  }

  // --- staff WeChat binding ---------------------------------------------------------------------

  /**
   * Binds `openid` to staff member `staffId` (encrypted + blind index). Refused when another staff
   * member holds it; binding the same openid again is fine. Serialised per openid.
   */
  /** `actor`: the staff member — the binding is written to the audit log (openid masked). */
  async bindOpenid(staffId: number, openid: string, actor: Actor, now = new Date()) {
    await this.d.limiter.enforce(
      `bind-openid:staff:${staffId}`,
      OPENID_BINDS_PER_STAFF_PER_HOUR,
      { ms: 3600_000 },
      '绑定微信',
    );
    const hash = blindIndex(this.d.ring, 'wechat-openid', openid);
    return this.d.repo.transaction(async (tx) => {
      await tx.lockForTransaction(`wechat-openid:${hash}`);
      if (await tx.openidHeldByOther(hash, staffId)) {
        throw appError('FORBIDDEN', '该微信已绑定其他员工账号，请先在原账号解绑后再绑定');
      }
      const row = await tx.bindOpenid(staffId, {
        openidEnc: encryptField(this.d.ring, openid),
        openidHash: hash,
        boundAt: now,
      });
      if (!row) throw appError('NOT_FOUND', '员工账号不存在');
      await tx.recordAudit(actor, {
        action: 'bind-wechat',
        entity: 'staff',
        entityId: staffId,
        after: { openid: maskOpenid(openid), boundAt: now },
      });
      return {
        staffId: row.id,
        openidMasked: maskOpenid(openid),
        boundAt: (row.boundAt ?? now).toISOString(),
      };
    });
  }
}
