import { api } from '@/lib/api-client';

export interface ReportDeviceInput {
  provinceName: string;
  cityName: string;
  adChannelCode?: string;
}

/** POST /api/reportDevice {provinceName, cityName, adChannelCode?} (silent). */
export function reportDevice(body: ReportDeviceInput): Promise<unknown> {
  return api.post('/api/reportDevice', { ...body }, { silent: true });
}
