import { api } from '@/lib/api-client';

/** Channel detail of spec §3. */
export interface ChannelDetail {
  adChannelCode: string;
  channelStatus: number;
  linkType: number;
  excludeCityCodes: string[];
  planTargetUrl: string | null;
}

/** GET /api/getAdChannel?adChannelCode= */
export function fetchChannelDetail(adChannelCode: string): Promise<ChannelDetail> {
  return api.get<ChannelDetail>('/api/getAdChannel', { params: { adChannelCode }, silent: true });
}
