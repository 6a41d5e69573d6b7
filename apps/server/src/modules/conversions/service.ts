import { attributedClick, clickOfTrackReport, DEFAULT_ATTRIBUTION_WINDOW_DAYS } from '@lm/shared/ad-clicks';
import type { AdClickRepository, AdClickRow } from './repository.ts';

export interface AdClickServiceDeps {
  repo: AdClickRepository;
  /** The attribution window of a channel in days (its conversion settings, issue 47.2). */
  windowDays?: (adChannelCode: string) => Promise<number>;
}

/**
 * The ad click behind a visit and a person (issue 47.1, ADR 069): what the `track_report` header names is
 * kept on each funnel event and login, and a login is credited to the last click of its channel within
 * the attribution window.
 */
export class AdClickService {
  constructor(private readonly d: AdClickServiceDeps) {}

  /** Keeps the click a funnel event's header names (nothing without a channel or a click). */
  async seen(
    header: string | string[] | undefined,
    channelCode: string | null | undefined,
    now = new Date(),
  ) {
    const click = clickOfTrackReport(header);
    if (!click || !channelCode) return null;
    return this.d.repo.seen(click, channelCode, now);
  }

  /**
   * A person logged in on `channelCode` carrying `header`: keeps its click and credits the person with it
   * when the attribution rule says so. Returns the click credited, or null.
   */
  async login(
    header: string | string[] | undefined,
    at: { userId: number; channelCode: string | null | undefined; now?: Date },
  ): Promise<AdClickRow | null> {
    const now = at.now ?? new Date();
    const row = await this.seen(header, at.channelCode, now);
    if (!row || !at.channelCode) return null;
    const windowDays = this.d.windowDays
      ? await this.d.windowDays(at.channelCode)
      : DEFAULT_ATTRIBUTION_WINDOW_DAYS;
    const chosen = attributedClick([{ ...row, seenAt: row.firstSeenAt }], {
      userId: at.userId,
      channelCode: at.channelCode,
      now,
      windowDays,
    });
    if (!chosen) return null;
    if (row.userId === at.userId) return row;
    return (await this.d.repo.credit(chosen.id, at.userId, now))
      ? { ...row, userId: at.userId, attributedAt: now }
      : null;
  }

  find(clickId: string, platform?: string): Promise<AdClickRow[]> {
    return this.d.repo.find(clickId, platform);
  }
}
