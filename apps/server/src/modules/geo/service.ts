import type { ExcludeCityData, ReportDeviceBody } from '@lm/shared/schemas/geo';
import { AppError, appError } from '../../lib/errors.ts';
import type { Coordinates, GeoProvider } from '../../providers/geo/index.ts';
import type { AuthService } from '../auth/service.ts';
import type { Limiter } from '../limits/limiter.ts';
import type { GeoRepository } from './repository.ts';

/** Location look-ups per client IP per hour (each may cost a Baidu Map call). */
export const LOOKUPS_PER_IP_PER_HOUR = 120;
/** Device reports per client IP per hour. */
export const REPORTS_PER_IP_PER_HOUR = 60;

export interface GeoServiceDeps {
  repo: GeoRepository;
  provider: GeoProvider;
  limiter: Limiter;
  auth: AuthService;
}

/** Spec §7: reverse geolocation with the channel's excluded cities, and device (location) reports. */
export class GeoService {
  constructor(private readonly d: GeoServiceDeps) {}

  get providerName(): string {
    return this.d.provider.name;
  }

  /** Where the visitor is and whether the channel excludes that city. */
  async excludeCity(
    input: { location?: Coordinates | undefined; adChannelCode?: string | undefined },
    ip: string,
  ): Promise<ExcludeCityData> {
    await this.limit(`geo:lookup:ip:${ip}`, LOOKUPS_PER_IP_PER_HOUR, '定位');
    let excluded: readonly string[] = [];
    if (input.adChannelCode) {
      const codes = await this.d.repo.channelExcludedCities(input.adChannelCode);
      if (codes === undefined) throw appError('NOT_FOUND', '渠道不存在');
      excluded = codes ?? [];
    }
    const place = await this.d.provider.reverse(input.location ?? null, ip);
    return {
      province: place.province,
      city: place.city,
      cityCode: place.cityCode,
      excludeCity: place.cityCode !== null && excluded.includes(place.cityCode),
      source: place.source,
    };
  }

  /**
   * Stores the province and city the H5 reports (post-login location flow). A valid token ties the
   * report to the person; a missing, expired or replaced token stores it without one.
   */
  async reportDevice(
    input: ReportDeviceBody,
    ip: string,
    token: string | undefined,
  ): Promise<{ recorded: true }> {
    await this.limit(`geo:report:ip:${ip}`, REPORTS_PER_IP_PER_HOUR, '上报');
    let userId: number | null = null;
    if (token) {
      try {
        userId = (await this.d.auth.authenticate(token)).user.id;
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 401) throw err;
      }
    }
    await this.d.repo.insertDeviceReport({
      userId,
      adChannelCode: input.adChannelCode ?? null,
      provinceName: input.provinceName,
      cityName: input.cityName,
      ip,
    });
    return { recorded: true };
  }

  private async limit(key: string, limit: number, what: string): Promise<void> {
    await this.d.limiter.enforce(key, limit, { ms: 3600_000 }, what);
  }
}
