import type { Redis } from 'ioredis';
import type { Env } from './config/env.ts';
import type { Keys } from './config/keys.ts';
import type { Database } from './db/client.ts';
import type { Metrics } from './lib/metrics.ts';
import type { PartnerHttp } from './lib/partner-http.ts';
import type { AdminPartnersService } from './modules/admin-catalog/partners.ts';
import type { AdminProductsService } from './modules/admin-catalog/products.ts';
import type { AdminChannelService } from './modules/admin-channels/service.ts';
import type { AuditLogQueries } from './modules/admin-leads/audit-log.ts';
import type { AdminPeopleService } from './modules/admin-leads/people.ts';
import type { AdminLeadsService } from './modules/admin-leads/service.ts';
import type { AdminOperatorService } from './modules/admin-operators/service.ts';
import type { AnalyticsService } from './modules/analytics/service.ts';
import type { ApplicationService } from './modules/applications/service.ts';
import type { AuditLog } from './modules/audit/service.ts';
import type { AuthService, AuthUser } from './modules/auth/service.ts';
import type { SmsCodes } from './modules/auth/sms-codes.ts';
import type { CatalogService } from './modules/catalog/service.ts';
import type { ChannelCostPoster } from './modules/channel-costs/poster.ts';
import type { ChannelCostsService } from './modules/channel-costs/service.ts';
import type { SpendImportService } from './modules/channel-costs/spend-service.ts';
import type { ChannelService } from './modules/channels/service.ts';
import type { ConsentService } from './modules/consent/service.ts';
import type { ContentService } from './modules/content/service.ts';
import type { AdReportService } from './modules/conversions/reports-service.ts';
import type { AdClickService } from './modules/conversions/service.ts';
import type { ConversionSettingsService } from './modules/conversions/settings-service.ts';
import type { CreditInfoService } from './modules/credit-info/service.ts';
import type { PartnerCallbacks } from './modules/delivery/partner-callbacks.ts';
import type { PartnerSandbox } from './modules/delivery/partner-sandbox.ts';
import type { DeliveryWorker } from './modules/delivery/worker.ts';
import type { FunnelService } from './modules/funnel/service.ts';
import type { GeoService } from './modules/geo/service.ts';
import type { VerifiedIdentities } from './modules/identity/verified.ts';
import type { LedgerPoster } from './modules/ledger/poster.ts';
import type { LedgerRepository } from './modules/ledger/repository.ts';
import type { LedgerService } from './modules/ledger/service.ts';
import type { Limiter } from './modules/limits/limiter.ts';
import type { MatchService } from './modules/matching/service.ts';
import type { PartnerOutcomesService } from './modules/outcomes/admin-service.ts';
import type { ReconcileService } from './modules/outcomes/reconcile-service.ts';
import type { OutcomeService } from './modules/outcomes/service.ts';
import type { PricingService } from './modules/pricing/service.ts';
import type { AdminNoticesService } from './modules/privacy/admin-notices.ts';
import type { PrivacyService } from './modules/privacy/service.ts';
import type { ReturnService } from './modules/returns/service.ts';
import type { RoiService } from './modules/roi/service.ts';
import type { RumService } from './modules/rum/service.ts';
import type { SettlementService } from './modules/settlement/service.ts';
import type { ManifestStore } from './modules/site/manifest-store.ts';
import type { SiteService } from './modules/site/service.ts';
import type { StaffAccounts } from './modules/staff/accounts.ts';
import type { StaffRow, StaffService } from './modules/staff/service.ts';
import type { SystemService } from './modules/system/service.ts';
import type { VerificationService } from './modules/verification/service.ts';
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
  /** The ad click behind a visit and a person (issue 47.1, ADR 069). */
  adClicks: AdClickService;
  conversionSettings: ConversionSettingsService;
  adReports: AdReportService;
  outcomes: OutcomeService;
  /** A lender's CSV of outcomes compared with its reports (issue 47.4). */
  reconcile: ReconcileService;
  partnerOutcomes: PartnerOutcomesService;
  /** A product's lead prices with the day each takes effect (issue 48.1, ADR 073). */
  pricing: PricingService;
  /** A channel's cost rows with the day each takes effect (issue 48.2). */
  channelCosts: ChannelCostsService;
  /** Spend imported from ad platforms' daily reports (issue 48.2). */
  spendImports: SpendImportService;
  /** The daily per-event channel cost sweep (`runOnce({force})`; the delivery worker runs it). */
  channelCostPoster: ChannelCostPoster;
  /** Entries booked in one transaction (returns, spend, adjustments) and month closes (issue 48, ADR 073). */
  ledger: LedgerService;
  /** The ledger's reads and writes, for the money modules' services (issue 48). */
  ledgerRepo: LedgerRepository;
  /** The sweep that books delivered, approved and funded leads (`runOnce`; the delivery worker runs it). */
  ledgerPoster: LedgerPoster;
  /** Lead returns from lenders and their review by staff (issue 48.4). */
  returns: ReturnService;
  /** Monthly statements, the month close, adjustments and payouts (issue 48.5). */
  settlement: SettlementService;
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
  /** Application drafts and the saved form (spec §3). */
  applications: ApplicationService;
  /** The verified identity of a person (issue 16.1). */
  identities: VerifiedIdentities;
  /** ID-card OCR and the face check on the person's own uploads (issue 5). */
  verification: VerificationService;
  creditInfo: CreditInfoService;
  /** Product lists, details and apply (spec §7). */
  catalog: CatalogService;
  /** Agreements (versioned) and daily news. */
  content: ContentService;
  /** The app-download JSON (local file or OSS object). */
  manifest: ManifestStore;
  site: SiteService;
  rum: RumService;
  funnel: FunnelService;
  /** ROI per channel, day or skin (issue 48.6). */
  roi: RoiService;
  adminChannels: AdminChannelService;
  adminOperators: AdminOperatorService;
  adminPartners: AdminPartnersService;
  adminProducts: AdminProductsService;
  adminLeads: AdminLeadsService;
  adminPeople: AdminPeopleService;
  /** 操作日志 (reading). */
  auditLog: AuditLogQueries;
  /** Privacy notices to lenders, in the console. */
  adminNotices: AdminNoticesService;
  /** Health and the dev SMS outbox. */
  system: SystemService;
  /** 账号管理: staff account changes with their audit entries. */
  staffAccounts: StaffAccounts;
  /** Signed calls from partners (callbacks, joint login). */
  partnerCallbacks: PartnerCallbacks;
  /** The development lender (PARTNER_SANDBOX). */
  partnerSandbox: PartnerSandbox;
  /** Audit entries written outside a change's own transaction. */
  audit: AuditLog;
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
