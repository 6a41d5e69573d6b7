import { AD_PLATFORMS, type AdPlatform, DEFAULT_ATTRIBUTION_WINDOW_DAYS } from '@lm/shared/ad-clicks';
import {
  CONVERSION_STEPS,
  type ConversionEventMap,
  conversionProblems,
  defaultEventMap,
  maskSecret,
  PLATFORM_CREDENTIALS,
} from '@lm/shared/conversions';
import type { ChannelConversionsBody, ChannelConversionsData } from '@lm/shared/schemas/conversions';
import type { Actor } from '../../lib/actor.ts';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type {
  ChannelConversionsRow,
  ConversionChannel,
  ConversionSettingsRepository,
} from './settings-repository.ts';

export interface ConversionSettingsDeps {
  repo: ConversionSettingsRepository;
  ring: KeyRing;
}

/** What `credentials_enc` holds: the platform they are for and their values. */
interface StoredCredentials {
  platform: AdPlatform;
  values: Record<string, string>;
}

const isAdPlatform = (p: string | undefined): p is AdPlatform =>
  p !== undefined && (AD_PLATFORMS as readonly string[]).includes(p);

/**
 * A channel's reporting to its ad platform (issue 47.2): read and saved by the console, its window read at
 * every login (ADR 069). Credentials are kept encrypted and never answered back in clear.
 */
export class ConversionSettingsService {
  constructor(private readonly d: ConversionSettingsDeps) {}

  private credentialsOf(row: ChannelConversionsRow | null): StoredCredentials | null {
    if (!row?.credentialsEnc) return null;
    return JSON.parse(decryptField(this.d.ring, row.credentialsEnc)) as StoredCredentials;
  }

  /** The stored credentials valid for `platform` (those of another platform do not carry over). */
  private valuesFor(row: ChannelConversionsRow | null, platform: AdPlatform): Record<string, string> {
    const stored = this.credentialsOf(row);
    return stored && stored.platform === platform ? stored.values : {};
  }

  private async channel(repo: ConversionSettingsRepository, id: number): Promise<ConversionChannel> {
    const channel = await repo.channel(id);
    if (!channel) throw appError('NOT_FOUND', '渠道不存在');
    return channel;
  }

  private data(channel: ConversionChannel, row: ChannelConversionsRow | null): ChannelConversionsData {
    const platform: AdPlatform = row
      ? (row.platform as AdPlatform)
      : isAdPlatform(channel.trackReport?.platform)
        ? channel.trackReport.platform
        : 'oceanengine';
    const events = row ? row.events : defaultEventMap(platform);
    const values = this.valuesFor(row, platform);
    return {
      channelId: channel.id,
      adChannelCode: channel.adChannelCode,
      configured: row !== null,
      enabled: row?.enabled ?? false,
      platform,
      windowDays: row?.windowDays ?? DEFAULT_ATTRIBUTION_WINDOW_DAYS,
      events,
      credentials: PLATFORM_CREDENTIALS[platform].map((f) => {
        const v = values[f.key];
        return {
          key: f.key,
          label: f.label,
          secret: f.secret,
          set: Boolean(v),
          shown: v ? (f.secret ? maskSecret(v) : v) : null,
        };
      }),
      trackReport: channel.trackReport,
      problems: conversionProblems({ platform, events }, channel.trackReport, new Set(Object.keys(values))),
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  }

  async get(channelId: number): Promise<ChannelConversionsData> {
    const channel = await this.channel(this.d.repo, channelId);
    return this.data(channel, await this.d.repo.settings(channelId));
  }

  /**
   * Saves the settings (audited, secrets by name only). Credentials sent replace the stored ones of that key
   * ('' removes one); absent ones stay while the platform stays. Reporting can be switched on only when
   * nothing would stop it (conversionProblems): a clear refusal names what is missing.
   */
  async update(
    actor: Actor,
    channelId: number,
    body: ChannelConversionsBody,
  ): Promise<ChannelConversionsData> {
    const { channel, row } = await this.d.repo.transaction(async (tx) => {
      const channel = await this.channel(tx, channelId);
      const before = await tx.settings(channelId, true);
      const values = { ...this.valuesFor(before, body.platform) };
      const changed: string[] = [];
      for (const [key, value] of Object.entries(body.credentials ?? {})) {
        if ((values[key] ?? '') === value) continue;
        const field = PLATFORM_CREDENTIALS[body.platform].find((f) => f.key === key);
        changed.push(field?.label ?? key);
        if (value === '') delete values[key];
        else values[key] = value;
      }
      const events = Object.fromEntries(
        CONVERSION_STEPS.map((s) => [s, { ...body.events[s] }]),
      ) as ConversionEventMap;
      if (body.enabled) {
        const problems = conversionProblems(
          { platform: body.platform, events },
          channel.trackReport,
          new Set(Object.keys(values)),
        );
        if (problems.length) throw appError('VALIDATION_FAILED', `无法开启回传：${problems.join('；')}`);
      }
      const row = await tx.save({
        channelId,
        enabled: body.enabled,
        platform: body.platform,
        windowDays: body.windowDays,
        events,
        credentialsEnc: Object.keys(values).length
          ? encryptField(
              this.d.ring,
              JSON.stringify({ platform: body.platform, values } satisfies StoredCredentials),
            )
          : null,
        updatedAt: new Date(),
      });
      const snapshot = (r: ChannelConversionsRow | null) =>
        r && {
          adChannelCode: channel.adChannelCode,
          enabled: r.enabled,
          platform: r.platform,
          windowDays: r.windowDays,
          events: r.events,
        };
      await tx.recordAudit(actor, {
        action: before ? 'update' : 'create',
        entity: 'channel_conversions',
        entityId: channelId,
        before: snapshot(before),
        after: { ...snapshot(row), ...(changed.length ? { credentialsChanged: changed } : {}) },
      });
      return { channel, row };
    });
    return this.data(channel, row);
  }

  /** The attribution window of a channel (days; the default when it has no settings). */
  async windowDays(adChannelCode: string): Promise<number> {
    return (await this.d.repo.settingsByCode(adChannelCode))?.windowDays ?? DEFAULT_ATTRIBUTION_WINDOW_DAYS;
  }
}
