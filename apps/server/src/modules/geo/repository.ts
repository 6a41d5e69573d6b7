import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channels, deviceReports } from '../../db/schema.ts';

export type DeviceReportInsert = typeof deviceReports.$inferInsert;

/** The channel's excluded cities and the H5's device (location) reports. */
export class GeoRepository {
  constructor(private readonly db: Db) {}

  /** A channel's excluded city codes; undefined when there is no such channel. */
  async channelExcludedCities(adChannelCode: string): Promise<string[] | null | undefined> {
    const [channel] = await this.db
      .select({ excludeCityCodes: channels.excludeCityCodes })
      .from(channels)
      .where(eq(channels.adChannelCode, adChannelCode))
      .limit(1);
    return channel ? channel.excludeCityCodes : undefined;
  }

  async insertDeviceReport(values: DeviceReportInsert): Promise<void> {
    await this.db.insert(deviceReports).values(values);
  }
}
