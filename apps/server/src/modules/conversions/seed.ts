import type { AdPlatform } from '@lm/shared/ad-clicks';
import { defaultEventMap } from '@lm/shared/conversions';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channelConversions, channels } from '../../db/schema.ts';
import { encryptField, type KeyRing } from '../../lib/crypto.ts';

/**
 * The demo channels that report conversions (issue 47.2), one per platform, each with its platform's default
 * event map and made-up credentials the local sandboxes accept (docs/demo.md).
 */
export const DEMO_CONVERSIONS: {
  adChannelCode: string;
  platform: AdPlatform;
  credentials: Record<string, string>;
}[] = [
  { adChannelCode: 'demo', platform: 'oceanengine', credentials: {} },
  { adChannelCode: 'demo-location', platform: 'baidu', credentials: { token: 'demo-baidu-ocpc-token' } },
  { adChannelCode: 'demo-skin11', platform: 'kuaishou', credentials: {} },
  {
    adChannelCode: 'demo-skin14',
    platform: 'tencent',
    credentials: {
      accountId: '20261205',
      userActionSetId: '1100000001',
      accessToken: 'demo-tencent-access-token',
    },
  },
];

/**
 * Saves the demo channels' reporting unless an operator has already saved some (a change made in the console
 * survives a restart). Runs after the demo channels' seed, outside production.
 */
export async function seedDemoConversions(db: Db, ring: KeyRing): Promise<void> {
  const rows = await db
    .select({ id: channels.id, code: channels.adChannelCode })
    .from(channels)
    .where(
      inArray(
        channels.adChannelCode,
        DEMO_CONVERSIONS.map((c) => c.adChannelCode),
      ),
    );
  const idOf = new Map(rows.map((r) => [r.code, r.id]));
  const values = DEMO_CONVERSIONS.flatMap((c) => {
    const channelId = idOf.get(c.adChannelCode);
    if (channelId === undefined) return [];
    return [
      {
        channelId,
        enabled: true,
        platform: c.platform,
        windowDays: 7,
        events: defaultEventMap(c.platform),
        credentialsEnc: Object.keys(c.credentials).length
          ? encryptField(ring, JSON.stringify({ platform: c.platform, values: c.credentials }))
          : null,
      },
    ];
  });
  if (values.length) await db.insert(channelConversions).values(values).onConflictDoNothing();
}
