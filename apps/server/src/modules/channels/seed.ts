import type { Db } from '../../db/client.ts';
import { channels } from '../../db/schema.ts';

/** Demo channels served by `npm start` (the channel issue extends these with skins and flows). */
export const DEMO_CHANNELS = [
  { adChannelCode: 'demo', name: '演示渠道（默认流程）', linkType: 1, flags: 'skin17' },
] as const;

export async function seedDemoChannels(db: Db): Promise<void> {
  await db
    .insert(channels)
    .values(DEMO_CHANNELS.map((c) => ({ ...c })))
    .onConflictDoNothing({ target: channels.adChannelCode });
}
