import type { Redis } from 'ioredis';
import type { Env } from './config/env.ts';
import type { Keys } from './config/keys.ts';
import type { Database } from './db/client.ts';
import type { Metrics } from './lib/metrics.ts';
import type { PartnerHttp } from './lib/partner-http.ts';
import type { AnalyticsService } from './modules/analytics/service.ts';
import type { AuthService, AuthUser } from './modules/auth/service.ts';
import type { SmsCodes } from './modules/auth/sms-codes.ts';
import type { ChannelService } from './modules/channels/service.ts';
import type { ConsentService } from './modules/consent/service.ts';
import type { DeliveryWorker } from './modules/delivery/worker.ts';
import type { GeoService } from './modules/geo/service.ts';
import type { Limiter } from './modules/limits/limiter.ts';
import type { MatchService } from './modules/matching/service.ts';
import type { PrivacyService } from './modules/privacy/service.ts';
import type { StaffRow, StaffService } from './modules/staff/service.ts';
import type { FaceProvider } from './providers/face/types.ts';
import type { IdCardOcrProvider } from './providers/ocr/types.ts';
import type { RealNameProvider } from './providers/realname/types.ts';
import type { SmsProvider } from './providers/sms/types.ts';
import type { StorageProvider } from './providers/storage/types.ts';

export interface Services {
  keys: Keys;
  limiter: Limiter;
  sms: SmsProvider;
  codes: SmsCodes;
  auth: AuthService;
  staff: StaffService;
  channels: ChannelService;
  analytics: AnalyticsService;
  geo: GeoService;
  realName: RealNameProvider;
  /** ID-card OCR (local tesseract.js or Tencent IDCardOCR). */
  ocr: IdCardOcrProvider;
  /** Selfie check (local face detection, identity not verified, or Tencent 人脸核身). */
  face: FaceProvider;
  matching: MatchService;
  consent: ConsentService;
  delivery: DeliveryWorker;
  /** Sessions, application record, who has my data, export, deletion notices (issue 6). */
  privacy: PrivacyService;
  /** Uploads (local store or Aliyun OSS): `getObject(key)`, `keyFromUrl(url)`. */
  storage: StorageProvider;
  /** The client for partner calls and its outbound policy (ADR 019). */
  partnerHttp: PartnerHttp;
  phoneIndex(phone: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Env;
    database: Database;
    redis: Redis | null;
    services: Services;
    /** Prometheus metrics of this instance (lib/metrics.ts). */
    metrics: Metrics;
    /** Set on SIGTERM: /readyz answers 503 while the instance finishes its work. */
    draining: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    sessionId: number | null;
    staffMember: StaffRow | null;
    staffSessionId: number | null;
  }
}
