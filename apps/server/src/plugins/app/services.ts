import fp from 'fastify-plugin';
import type { Env } from '../../config/env.ts';
import { loadKeys } from '../../config/keys.ts';
import {
  adPlatformBase,
  outboundPolicy,
  ownSandboxEntries,
  partnerSandboxOn,
  publicOrigin,
} from '../../config/outbound.ts';
import { blindIndex } from '../../lib/crypto.ts';
import type { Metrics } from '../../lib/metrics.ts';
import { PartnerHttp } from '../../lib/partner-http.ts';
import { AdminPartnersService } from '../../modules/admin-catalog/partners.ts';
import { AdminProductsService } from '../../modules/admin-catalog/products.ts';
import { AdminCatalogRepository } from '../../modules/admin-catalog/repository.ts';
import { AdminChannelsRepository } from '../../modules/admin-channels/repository.ts';
import { AdminChannelService } from '../../modules/admin-channels/service.ts';
import { AuditLogQueries } from '../../modules/admin-leads/audit-log.ts';
import { AdminPeopleService } from '../../modules/admin-leads/people.ts';
import { AdminPeopleRepository } from '../../modules/admin-leads/people-repository.ts';
import { AdminLeadsRepository } from '../../modules/admin-leads/repository.ts';
import { AdminLeadsService } from '../../modules/admin-leads/service.ts';
import { AdminOperatorsRepository } from '../../modules/admin-operators/repository.ts';
import { AdminOperatorService } from '../../modules/admin-operators/service.ts';
import { AnalyticsRepository } from '../../modules/analytics/repository.ts';
import { AnalyticsService } from '../../modules/analytics/service.ts';
import { ApplicationRepository } from '../../modules/applications/repository.ts';
import { ApplicationService } from '../../modules/applications/service.ts';
import { AuditRepository } from '../../modules/audit/repository.ts';
import { AuditLog } from '../../modules/audit/service.ts';
import { Challenges } from '../../modules/auth/challenge.ts';
import { KnownDeviceRepository } from '../../modules/auth/known-device-repository.ts';
import { AuthRepository } from '../../modules/auth/repository.ts';
import { DEFAULT_PHONE_LIMITS } from '../../modules/auth/rules.ts';
import { AuthService } from '../../modules/auth/service.ts';
import { SmsCodeRepository } from '../../modules/auth/sms-code-repository.ts';
import { SmsCodes } from '../../modules/auth/sms-codes.ts';
import { CapsRepository } from '../../modules/caps/repository.ts';
import { CatalogRepository } from '../../modules/catalog/repository.ts';
import { CatalogService } from '../../modules/catalog/service.ts';
import { ChannelCostPoster } from '../../modules/channel-costs/poster.ts';
import { ChannelCostsRepository } from '../../modules/channel-costs/repository.ts';
import { ChannelCostsService } from '../../modules/channel-costs/service.ts';
import { SpendImportService } from '../../modules/channel-costs/spend-service.ts';
import {
  type ConfigCache,
  H5_CONFIG_TTL_SECONDS,
  MemoryConfigCache,
  RedisConfigCache,
} from '../../modules/channels/cache.ts';
import { DatabaseClickStore, RedisClickStore } from '../../modules/channels/click-store.ts';
import { ChannelRepository } from '../../modules/channels/repository.ts';
import { ChannelService } from '../../modules/channels/service.ts';
import { ConsentRepository } from '../../modules/consent/repository.ts';
import { ConsentService } from '../../modules/consent/service.ts';
import { ContentRepository } from '../../modules/content/repository.ts';
import { ContentService } from '../../modules/content/service.ts';
import { AdReportRepository } from '../../modules/conversions/reports-repository.ts';
import { AdReportSender } from '../../modules/conversions/reports-sender.ts';
import { AdReportService } from '../../modules/conversions/reports-service.ts';
import { AdClickRepository } from '../../modules/conversions/repository.ts';
import { AdClickService } from '../../modules/conversions/service.ts';
import { ConversionSettingsRepository } from '../../modules/conversions/settings-repository.ts';
import { ConversionSettingsService } from '../../modules/conversions/settings-service.ts';
import { CreditInfoRepository } from '../../modules/credit-info/repository.ts';
import { CreditInfoService } from '../../modules/credit-info/service.ts';
import { PartnerCallbacks } from '../../modules/delivery/partner-callbacks.ts';
import { PartnerSandbox } from '../../modules/delivery/partner-sandbox.ts';
import { DeliveryRepository } from '../../modules/delivery/repository.ts';
import { SandboxRepository } from '../../modules/delivery/sandbox-repository.ts';
import { DeliveryWorker } from '../../modules/delivery/worker.ts';
import { FunnelRepository } from '../../modules/funnel/repository.ts';
import { FunnelService } from '../../modules/funnel/service.ts';
import { GeoRepository } from '../../modules/geo/repository.ts';
import { GeoService } from '../../modules/geo/service.ts';
import { IdentityRepository } from '../../modules/identity/repository.ts';
import { VerifiedIdentities } from '../../modules/identity/verified.ts';
import { LedgerPoster } from '../../modules/ledger/poster.ts';
import { LedgerRepository } from '../../modules/ledger/repository.ts';
import { LedgerService } from '../../modules/ledger/service.ts';
import { DbCounterStore } from '../../modules/limits/db-store.ts';
import { FallbackCounterStore } from '../../modules/limits/fallback-store.ts';
import { Limiter } from '../../modules/limits/limiter.ts';
import { isRedisDown, RedisCounterStore } from '../../modules/limits/redis-store.ts';
import { MatchRepository } from '../../modules/matching/repository.ts';
import { MatchService } from '../../modules/matching/service.ts';
import { OperatorRepository } from '../../modules/operators/repository.ts';
import { configuredOperator, footerOf, operatorInfo } from '../../modules/operators/rules.ts';
import { Operators } from '../../modules/operators/service.ts';
import { OutcomeAdminRepository } from '../../modules/outcomes/admin-repository.ts';
import { PartnerOutcomesService } from '../../modules/outcomes/admin-service.ts';
import { PollRepository } from '../../modules/outcomes/poll-repository.ts';
import { StatusPoller } from '../../modules/outcomes/poller.ts';
import { ReconcileRepository } from '../../modules/outcomes/reconcile-repository.ts';
import { ReconcileService } from '../../modules/outcomes/reconcile-service.ts';
import { OutcomeRepository } from '../../modules/outcomes/repository.ts';
import { OutcomeService } from '../../modules/outcomes/service.ts';
import { PricingRepository } from '../../modules/pricing/repository.ts';
import { PricingService } from '../../modules/pricing/service.ts';
import { AdminNoticesService } from '../../modules/privacy/admin-notices.ts';
import { PrivacyRepository } from '../../modules/privacy/repository.ts';
import { PrivacyService } from '../../modules/privacy/service.ts';
import { ReturnRepository } from '../../modules/returns/repository.ts';
import { ReturnService } from '../../modules/returns/service.ts';
import { RoiRepository } from '../../modules/roi/repository.ts';
import { RoiService } from '../../modules/roi/service.ts';
import { RumRepository } from '../../modules/rum/repository.ts';
import { RumService } from '../../modules/rum/service.ts';
import { SettlementRepository } from '../../modules/settlement/repository.ts';
import { SettlementService } from '../../modules/settlement/service.ts';
import { createManifestStore } from '../../modules/site/manifest-store.ts';
import { SiteRepository } from '../../modules/site/repository.ts';
import { SiteService } from '../../modules/site/service.ts';
import { StaffAccounts } from '../../modules/staff/accounts.ts';
import { StaffRepository } from '../../modules/staff/repository.ts';
import { StaffService } from '../../modules/staff/service.ts';
import { SystemRepository } from '../../modules/system/repository.ts';
import { SystemService } from '../../modules/system/service.ts';
import { UploadedFilesRepository } from '../../modules/uploads/repository.ts';
import { VerificationRepository } from '../../modules/verification/repository.ts';
import { VerificationService } from '../../modules/verification/service.ts';
import { createFaceProvider } from '../../providers/face/index.ts';
import { createGeoProvider } from '../../providers/geo/index.ts';
import { createIdCardOcrProvider } from '../../providers/ocr/index.ts';
import { createRealNameProvider } from '../../providers/realname/index.ts';
import { AliyunSmsProvider } from '../../providers/sms/aliyun.ts';
import { ConsoleSmsProvider } from '../../providers/sms/console.ts';
import type { SmsProvider } from '../../providers/sms/types.ts';
import { createStorageProvider } from '../../providers/storage/index.ts';

/** The provider, counting each send by provider and outcome (sent, failed). */
function countedSends(sms: SmsProvider, metrics: Metrics): SmsProvider {
  return {
    name: sms.name,
    async send(message) {
      try {
        await sms.send(message);
      } catch (err) {
        metrics.smsSends.inc({ provider: sms.name, outcome: 'failed' });
        throw err;
      }
      metrics.smsSends.inc({ provider: sms.name, outcome: 'sent' });
    },
  };
}

/** The delivery worker's settings from the environment. */
export function deliveryConfig(config: Env) {
  return {
    maxAttempts: config.DELIVERY_MAX_ATTEMPTS,
    baseMs: config.DELIVERY_BACKOFF_BASE_MS,
    maxMs: config.DELIVERY_BACKOFF_MAX_MS,
    jitter: 0.2,
    timeoutMs: config.DELIVERY_TIMEOUT_MS,
    leaseMs: config.DELIVERY_LEASE_MS,
    batch: 20,
    partnerConcurrency: config.DELIVERY_PARTNER_CONCURRENCY,
  };
}

export interface ServicesOptions {
  /** Key prefix for limiter counters (tests isolate themselves with it). */
  limiterPrefix?: string | undefined;
}

/** Wires the services from configuration: keys, limiter store, SMS provider. */
export default fp<ServicesOptions>(
  async (app, opts) => {
    const { config, database, metrics } = app;
    const refused = (key: string) => metrics.refused(key);
    const keys = loadKeys(config);
    const phoneIndex = (phone: string) => blindIndex(keys.ring, 'phone', phone);

    const prefix = opts.limiterPrefix ?? '';
    // The database store is always there: the limits' store without Redis, their fallback with it.
    const dbStore = new DbCounterStore(database.db, prefix);
    const timer = setInterval(() => {
      dbStore
        .sweep()
        .catch((err) => app.log.warn({ err: { message: err.message } }, 'rate counter sweep failed'));
    }, 10 * 60_000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
    /** Most limits: Redis, or the database while Redis is unreachable (docs/fault-tests.md). */
    let limiter: Limiter;
    /** SMS sends and staff logins: Redis alone; refused (503) while it is unreachable. */
    let strictLimiter: Limiter;
    if (app.redis) {
      const redisStore = new RedisCounterStore(app.redis, config.REDIS_KEY_PREFIX + prefix);
      strictLimiter = new Limiter(redisStore, 'redis', refused);
      const fallbackStore = new FallbackCounterStore(
        redisStore,
        dbStore,
        isRedisDown,
        (usingFallback, err) => {
          if (usingFallback) {
            app.log.warn(
              { err: { message: (err as Error | undefined)?.message } },
              'redis unreachable: limits counted in the database until it is back; SMS sends and staff logins refused',
            );
          } else app.log.info('redis is back: limits counted in redis again');
        },
      );
      limiter = new Limiter(fallbackStore, 'redis', refused);
      metrics.redisFallback = () => fallbackStore.usingFallback;
    } else {
      limiter = new Limiter(dbStore, 'database', refused);
      strictLimiter = limiter;
    }

    let sms: SmsProvider;
    if (config.SMS_PROVIDER === 'aliyun') {
      sms = new AliyunSmsProvider({
        accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID!,
        accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET!,
        templateCode: config.ALIYUN_SMS_TEMPLATE_CODE!,
        endpoint: config.ALIYUN_SMS_ENDPOINT,
      });
    } else {
      sms = new ConsoleSmsProvider(new SystemRepository(database.db), app.log, phoneIndex);
    }
    sms = countedSends(sms, metrics);

    // Who a person deals with through a channel (ADR 057): its operator record, else the configured one.
    const operators = new Operators(new OperatorRepository(database.db), configuredOperator(config));
    const devices = new KnownDeviceRepository(database.db);
    const challenges = new Challenges({
      hmacKey: config.ALTCHA_HMAC_KEY ?? blindIndex(keys.ring, 'altcha-hmac', 'challenges'),
      maxNumber: config.ALTCHA_MAX_NUMBER,
      limiter: strictLimiter,
    });
    const codes = new SmsCodes({
      repo: new SmsCodeRepository(database.db),
      limiter,
      sendLimiter: strictLimiter,
      sms,
      signatureFor: async (code) => (await operators.forChannel(code)).smsSignature,
      ttlSeconds: config.SMS_CODE_TTL_SECONDS,
      limits: {
        ...DEFAULT_PHONE_LIMITS,
        perIpPerHour: config.SMS_IP_HOURLY_LIMIT,
        perDevicePerHour: config.SMS_DEVICE_HOURLY_LIMIT,
      },
      phoneIndex,
      codeHash: (phoneHash, code) => blindIndex(keys.ring, 'sms-code', `${phoneHash}:${code}`),
      idHash: (value) => blindIndex(keys.ring, 'device', value),
      devices,
      challenges,
      log: app.log,
    });
    const privacyRepo = new PrivacyRepository(database.db);
    const privacy = new PrivacyService({
      repo: privacyRepo,
      ring: keys.ring,
      deletionDeadlineWorkingDays: config.DELETION_DEADLINE_WORKING_DAYS,
      operatorOf: async (code) => {
        const { name, email, servicePhone } = operatorInfo(await operators.forChannel(code));
        return { name, email, servicePhone };
      },
    });
    const auth = new AuthService({
      repo: new AuthRepository(database.db),
      ring: keys.ring,
      partnerKeys: keys.partnerKeys,
      codes,
      devices,
      sessionTtlHours: config.SESSION_TTL_HOURS,
      phoneIndex,
      metrics,
      // Cancellation withdraws consents and asks every lender that received data to delete it.
      onCancel: (tx, userId, now, requestId) => privacy.onCancellation(tx, userId, now, requestId),
    });
    const staffRepo = new StaffRepository(database.db);
    const staff = new StaffService({
      repo: staffRepo,
      ring: keys.ring,
      limiter: strictLimiter,
      codes,
      devices,
      sessionTtlHours: config.STAFF_SESSION_TTL_HOURS,
      phoneIndex,
      metrics,
    });
    const deviceHash = (fingerprint: string) => blindIndex(keys.ring, 'device', fingerprint);
    const ttlMs = H5_CONFIG_TTL_SECONDS * 1000;
    const configCache: ConfigCache = app.redis
      ? new RedisConfigCache(app.redis, config.REDIS_KEY_PREFIX + prefix, ttlMs, (err) =>
          app.log.warn({ err: { message: err.message } }, 'channel cache unavailable; reading the database'),
        )
      : new MemoryConfigCache(ttlMs);
    const channelRepo = new ChannelRepository(database.db);
    // A fingerprint's first click of the day: the database's unique index decides; with Redis, a returning
    // visitor is answered there without a statement (click-store.ts, ADR 063).
    const clickRows = new DatabaseClickStore(channelRepo);
    const channels = new ChannelService({
      repo: channelRepo,
      cache: configCache,
      limiter,
      clicks: app.redis
        ? new RedisClickStore(app.redis, config.REDIS_KEY_PREFIX + prefix, clickRows, (err) =>
            app.log.warn(
              { err: { message: (err as Error).message } },
              'click claim: redis failed; the database decides',
            ),
          )
        : clickRows,
      deviceHash,
      fallbackOperator: footerOf(operators.fallback),
      l1TtlMs: config.CHANNEL_L1_TTL_MS,
      ...(configCache instanceof RedisConfigCache ? { announce: (code) => configCache.announce(code) } : {}),
    });
    if (app.redis && configCache instanceof RedisConfigCache) {
      // Every instance hears every invalidation and drops its L1 copy; while this subscription is down
      // (and until it is back) the L1 is off, so no instance serves a copy it might not hear about.
      const subscriber = app.redis.duplicate();
      const channel = configCache.invalidationChannel;
      subscriber.on('message', (ch: string, code: string) => {
        if (ch === channel) channels.dropLocal(code);
      });
      subscriber.on('error', (err: Error) =>
        app.log.warn({ err: { message: err.message } }, 'channel invalidation subscription: redis error'),
      );
      subscriber.on('close', () => channels.setLocalCache(false));
      subscriber.on('ready', () => {
        subscriber.subscribe(channel).then(
          () => channels.setLocalCache(true),
          (err: Error) =>
            app.log.warn({ err: { message: err.message } }, 'channel invalidation subscription failed'),
        );
      });
      subscriber.connect().catch(() => {
        // Logged by the error handler; the subscriber keeps retrying (retryStrategy) and the L1 stays off.
      });
      app.addHook('onClose', async () => {
        subscriber.disconnect();
      });
    }
    const analytics = new AnalyticsService({
      repo: new AnalyticsRepository(database.db),
      limiter,
      deviceHash,
    });
    const conversionSettings = new ConversionSettingsService({
      repo: new ConversionSettingsRepository(database.db),
      ring: keys.ring,
    });
    const adClicks = new AdClickService({
      repo: new AdClickRepository(database.db),
      windowDays: (code) => conversionSettings.windowDays(code),
    });
    const geo = new GeoService({
      repo: new GeoRepository(database.db),
      provider: createGeoProvider(config, app.log),
      limiter,
      auth,
    });
    const realName = createRealNameProvider(config, app.log);
    // Both start their engines (worker threads) on first use only.
    const ocr = createIdCardOcrProvider(config, app.log);
    const face = createFaceProvider(config, app.log);
    app.addHook('onClose', async () => {
      await Promise.all([ocr.close?.(), face.close?.()]);
    });
    const partnerHttp = new PartnerHttp(outboundPolicy(config));
    // Requests have ended by now; a partner call still open belongs to a delivery the worker gave
    // back on shutdown (its answer is not recorded): it is not waited for beyond a second.
    app.addHook('onClose', async () => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        partnerHttp.close(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 1000);
        }),
      ]);
      clearTimeout(timer);
    });
    // The sandbox is reached on the port actually listened on (PORT=0 picks one).
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (!partnerSandboxOn(config) || !address || typeof address !== 'object') return;
      for (const entry of ownSandboxEntries(address.port)) partnerHttp.policy.permit(entry);
    });
    const caps = new CapsRepository(database.db);
    const identities = new VerifiedIdentities({ repo: new IdentityRepository(database.db), ring: keys.ring });
    const matching = new MatchService({
      repo: new MatchRepository(database.db),
      caps,
      ring: keys.ring,
      log: app.log,
      http: partnerHttp,
      config: {
        maxLendersPerPeriod: config.MATCH_MAX_LENDERS,
        reapplyLockoutDays: config.MATCH_LOCKOUT_DAYS,
        periodDays: config.MATCH_PERIOD_DAYS,
        dupCheckTimeoutMs: config.DUP_CHECK_TIMEOUT_MS,
      },
      metrics,
    });
    const consent = new ConsentService({
      repo: new ConsentRepository(database.db),
      caps,
      identities,
      operators,
      ring: keys.ring,
      metrics,
    });
    const deliveryRepo = new DeliveryRepository(database.db);
    const adReportRepo = new AdReportRepository(database.db);
    const adReports = new AdReportService({ repo: adReportRepo });
    const outcomes = new OutcomeService({
      repo: new OutcomeRepository(database.db),
      report: async (event) => {
        try {
          await adReports.record(event);
        } catch (err) {
          app.log.error({ err, step: event.step }, 'conversion report not recorded');
        }
      },
    });
    const partnerOutcomes = new PartnerOutcomesService(new OutcomeAdminRepository(database.db));
    const pricing = new PricingService({ repo: new PricingRepository(database.db) });
    const reconcile = new ReconcileService({ repo: new ReconcileRepository(database.db) });
    const adReportSender = new AdReportSender({
      repo: adReportRepo,
      ring: keys.ring,
      http: partnerHttp,
      log: app.log,
      config: deliveryConfig(config),
      base: (platform) => adPlatformBase(config, platform, app.server.address()),
      publicOrigin: () => publicOrigin(config, app.server.address()),
    });
    // The ledger (issue 48.3): lead events booked by the delivery worker's rounds; returns, imports, closes.
    const ledgerRepo = new LedgerRepository(database.db);
    const ledgerPoster = new LedgerPoster({ repo: ledgerRepo, log: app.log });
    const ledger = new LedgerService(ledgerRepo);
    // Channel costs and imported spend (issue 48.2): per-event costs booked per ended day by the worker's rounds.
    const channelCostsRepo = new ChannelCostsRepository(database.db);
    const channelCosts = new ChannelCostsService({ repo: channelCostsRepo });
    const spendImports = new SpendImportService({ repo: channelCostsRepo });
    const channelCostPoster = new ChannelCostPoster({ repo: channelCostsRepo, log: app.log });
    // Lead returns (issue 48.4): the lead's delivery booked first, the negative signal like a duplicate outcome.
    const returns = new ReturnService({
      repo: new ReturnRepository(database.db),
      post: () => ledgerPoster.runOnce(),
      report: async (event) => {
        try {
          await adReports.record(event);
        } catch (err) {
          app.log.error({ err, step: event.step }, 'conversion report not recorded');
        }
      },
    });
    // Monthly statements, the month close, adjustments and payouts (issue 48.5).
    const settlement = new SettlementService({
      repo: new SettlementRepository(database.db),
      issuerName: config.OPERATOR_NAME,
    });
    // Lenders that offer only a status query (issue 47.4): asked by the delivery worker's rounds.
    const statusPoller = new StatusPoller({
      repo: new PollRepository(database.db),
      outcomes,
      http: partnerHttp,
      ring: keys.ring,
      log: app.log,
      timeoutMs: config.DELIVERY_TIMEOUT_MS,
    });
    const delivery = new DeliveryWorker({
      repo: deliveryRepo,
      ring: keys.ring,
      log: app.log,
      config: deliveryConfig(config),
      http: partnerHttp,
      metrics,
      reports: {
        claim: (batch, leaseMs) => adReportRepo.claim(batch, leaseMs),
        send: (c) => adReportSender.send(c),
      },
      polls: { run: async () => (await statusPoller.runOnce()).lenders },
      postings: {
        run: async () => (await ledgerPoster.runOnce()) + (await channelCostPoster.runOnce()),
      },
    });
    metrics.queueProbe = () => delivery.queue();
    const storage = createStorageProvider(config, {
      files: new UploadedFilesRepository(database.db),
      ring: keys.ring,
    });
    app.addHook('onClose', async () => storage.close?.());

    // The services of the person's side and the console, each built once (issue 18).
    const { db } = database;
    const ring = keys.ring;
    const applications = new ApplicationService({ repo: new ApplicationRepository(db), ring });
    const verification = new VerificationService({
      repo: new VerificationRepository(db),
      drafts: applications,
      identities,
      ring,
      storage,
      ocr,
      face,
      log: app.log,
    });
    const creditInfo = new CreditInfoService({ repo: new CreditInfoRepository(db), ring });
    const catalog = new CatalogService({ repo: new CatalogRepository(db), limiter });
    const content = new ContentService(new ContentRepository(db), {
      operators,
      deletionWorkingDays: config.DELETION_DEADLINE_WORKING_DAYS,
    });
    const manifest = createManifestStore(config, storage);
    const site = new SiteService({
      repo: new SiteRepository(db),
      ring,
      limiter,
      manifest,
      log: app.log,
      publicBaseUrl: (config.PUBLIC_BASE_URL ?? '').replace(/\/+$/, ''),
    });
    const rum = new RumService({ repo: new RumRepository(db), limiter, deviceHash });
    const funnel = new FunnelService(new FunnelRepository(db));
    const roi = new RoiService(new RoiRepository(db), funnel);
    const adminChannels = new AdminChannelService({
      repo: new AdminChannelsRepository(db),
      ring,
      channels,
      log: app.log,
    });
    const adminOperators = new AdminOperatorService({
      repo: new AdminOperatorsRepository(db),
      channels,
      fallback: operators.fallback,
      log: app.log,
    });
    const adminCatalogRepo = new AdminCatalogRepository(db);
    const adminPartners = new AdminPartnersService({
      repo: adminCatalogRepo,
      ring,
      matching,
      outbound: partnerHttp.policy,
    });
    const adminProducts = new AdminProductsService({
      repo: adminCatalogRepo,
      matching,
      matchConfig: {
        maxLendersPerPeriod: config.MATCH_MAX_LENDERS,
        reapplyLockoutDays: config.MATCH_LOCKOUT_DAYS,
        periodDays: config.MATCH_PERIOD_DAYS,
      },
      findChannel: (code) => channels.find(code),
    });
    const auditRepo = new AuditRepository(db);
    const adminLeads = new AdminLeadsService({ repo: new AdminLeadsRepository(db) });
    const adminPeople = new AdminPeopleService({ repo: new AdminPeopleRepository(db), ring, phoneIndex });
    const auditLog = new AuditLogQueries({ repo: auditRepo });
    const adminNotices = new AdminNoticesService({ repo: privacyRepo });
    const staffAccounts = new StaffAccounts({ repo: staffRepo, staff });
    const partnerCallbacks = new PartnerCallbacks({ repo: deliveryRepo, ring });
    const partnerSandbox = new PartnerSandbox({ repo: new SandboxRepository(db) });
    const audit = new AuditLog(auditRepo);
    const system = new SystemService({
      database,
      repo: new SystemRepository(db),
      redis: app.redis,
      phoneIndex,
    });

    app.decorate('services', {
      applications,
      identities,
      verification,
      creditInfo,
      catalog,
      content,
      manifest,
      site,
      rum,
      funnel,
      roi,
      adminChannels,
      adminOperators,
      adminPartners,
      adminProducts,
      adminLeads,
      adminPeople,
      auditLog,
      adminNotices,
      system,
      staffAccounts,
      partnerCallbacks,
      partnerSandbox,
      audit,
      storage,
      partnerHttp,
      matching,
      consent,
      delivery,
      privacy,
      keys,
      limiter,
      sms,
      codes,
      auth,
      staff,
      channels,
      analytics,
      adClicks,
      conversionSettings,
      adReports,
      outcomes,
      reconcile,
      partnerOutcomes,
      pricing,
      channelCosts,
      spendImports,
      channelCostPoster,
      ledger,
      ledgerRepo,
      ledgerPoster,
      returns,
      settlement,
      geo,
      realName,
      ocr,
      face,
      phoneIndex,
    });
    app.log.info(
      { limiter: limiter.name, sms: sms.name, geo: geo.providerName, realName: realName.name },
      'services ready',
    );
  },
  { name: 'services', dependencies: ['db', 'redis', 'metrics'] },
);
