import { z } from 'zod';
import { channelCodeSchema } from './common.ts';

/** An empty query value (`?location=`) counts as absent: the H5 retries without coordinates. */
const emptyAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const LOCATION_FORMAT_MSG = '位置 location 格式应为“纬度,经度”，例如 39.9042,116.4074';

/** `lat,lng` in decimal degrees (WGS-84), parsed into numbers. */
export const locationSchema = z
  .string({ error: LOCATION_FORMAT_MSG })
  .trim()
  .max(64, LOCATION_FORMAT_MSG)
  .regex(/^-?\d{1,3}(\.\d{1,12})?\s*,\s*-?\d{1,3}(\.\d{1,12})?$/, LOCATION_FORMAT_MSG)
  .transform((v) => {
    const [lat, lng] = v.split(',').map((part) => Number(part.trim())) as [number, number];
    return { lat, lng };
  })
  .refine((p) => p.lat >= -90 && p.lat <= 90, '纬度应在 -90 到 90 之间')
  .refine((p) => p.lng >= -180 && p.lng <= 180, '经度应在 -180 到 180 之间');

/** GET /api/third/baiduMap/excludeCity */
export const excludeCityQuery = z.object({
  location: z.preprocess(emptyAsAbsent, locationSchema.optional()),
  adChannelCode: z.preprocess(emptyAsAbsent, channelCodeSchema.optional()),
  coordtype: z.preprocess(
    emptyAsAbsent,
    z.literal('wgs84ll', { error: '坐标类型 coordtype 只支持 wgs84ll' }).optional(),
  ),
});
export type ExcludeCityQuery = z.infer<typeof excludeCityQuery>;

export const excludeCityData = z.object({
  /** Full province name; '' when the place is unknown. */
  province: z.string(),
  /** Full city name; '' when unknown. */
  city: z.string(),
  /** Six-digit city code (e.g. 440300); null when unknown. */
  cityCode: z.string().nullable(),
  /** Whether the channel does not serve this city. */
  excludeCity: z.boolean(),
  /** What located the visitor. */
  source: z.enum(['coordinates', 'ip', 'unknown']),
});
export type ExcludeCityData = z.infer<typeof excludeCityData>;

const regionName = (field: string) =>
  z
    .string({ error: `${field}必须是文本` })
    .trim()
    .min(1, `${field}不能为空`)
    .max(32, `${field}最长32个字`)
    .regex(/^[\p{Script=Han}·]+$/u, `${field}只能是中文地名`);

/** POST /api/reportDevice */
export const reportDeviceBody = z.object({
  provinceName: regionName('省份'),
  cityName: regionName('城市'),
  adChannelCode: z.preprocess(emptyAsAbsent, channelCodeSchema.optional()),
});
export type ReportDeviceBody = z.infer<typeof reportDeviceBody>;

export const reportDeviceData = z.object({ recorded: z.literal(true) });
