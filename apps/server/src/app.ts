import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import '@lm/shared'; // zh-CN validation messages
import { maxHeaderSize } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Env } from './config/env.ts';
import { partnerSandboxBase, partnerSandboxOn } from './config/outbound.ts';
import type { Database } from './db/client.ts';
import { loggerOptions } from './lib/logger.ts';
import { UNMATCHED_ROUTE } from './lib/metrics.ts';
import { requestIdGenerator } from './lib/request-id.ts';
import analyticsRoutes from './modules/analytics/routes.ts';
import applicationRoutes from './modules/applications/routes.ts';
import authRoutes from './modules/auth/routes.ts';
import channelRoutes from './modules/channels/routes.ts';
import { seedDemoChannels } from './modules/channels/seed.ts';
import consentRoutes from './modules/consent/routes.ts';
import deliveryRoutes from './modules/delivery/routes.ts';
import geoRoutes from './modules/geo/routes.ts';
import matchingRoutes from './modules/matching/routes.ts';
import { seedDemoProducts } from './modules/products/seed.ts';
import staffRoutes from './modules/staff/routes.ts';
import systemRoutes from './modules/system/routes.ts';
import authPlugin from './plugins/app/auth.ts';
import errorsPlugin, { refuseMethod } from './plugins/app/errors.ts';
import metricsPlugin from './plugins/app/metrics.ts';
import queryRulesPlugin, { queryRulesCompiler } from './plugins/app/query-rules.ts';
import servicesPlugin from './plugins/app/services.ts';
import wellFormedPlugin, { wellFormedCompiler } from './plugins/app/well-formed.ts';
import dbPlugin from './plugins/external/db.ts';
import redisPlugin from './plugins/external/redis.ts';
import securityPlugin, { API_HEADERS } from './plugins/external/security.ts';
import staticPlugin from './plugins/external/static.ts';
import swaggerPlugin from './plugins/external/swagger.ts';
import './types.ts';

export interface BuildOptions {
  config: Env;
  /** Share an open database (tests: two instances on one PGlite). */
  database?: Database;
  redis?: Redis;
  /** PostgreSQL schema to work in (test isolation). */
  schemaName?: string;
  limiterPrefix?: string;
  logger?: boolean;
  /** Where logs go (tests read them to prove nothing personal is written). */
  logStream?: { write(line: string): void };
  /** Extra plugins registered before the app is ready (tests add failing routes this way). */
  plugins?: FastifyPluginAsync[];
  serveStatic?: boolean;
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const logger: FastifyServerOptions['logger'] =
    opts.logger === false
      ? false
      : ({
          ...loggerOptions(config.LOG_LEVEL),
          ...(opts.logStream ? { stream: opts.logStream } : {}),
        } as FastifyServerOptions['logger']);
  const app = Fastify({
    logger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Who may vouch for a client's address (X-Forwarded-For) and its request id.
    trustProxy: config.TRUST_PROXY,
    // X-Request-Id from a trusted proxy (TRUST_PROXY), else a new one; in every log line of the request.
    genReqId: requestIdGenerator(config.TRUST_PROXY),
    requestIdHeader: false,
    // The router refuses no parameter for its length (its default is 100 characters, and what it refuses
    // never reaches a route, a hook or the error handler): a path parameter is as long as the request line
    // lets it be, and its route's schema bounds it (a 400 naming the field) like any other input (issue 44).
    routerOptions: { maxParamLength: maxHeaderSize },
    // A malformed path (bad percent-encoding …) is answered with the envelope like every other error. No
    // hook runs before this answer: it gets here the request id, the JSON answer's security headers that the
    // onRequest hooks give every other answer, its request line "request completed" and its count in the
    // request histogram (as a request no route matched), which Fastify gives no answer made here.
    frameworkErrors: (error, req, reply) => {
      const bad = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const status = bad ? 400 : 500;
      if (!bad) req.log.error({ err: error }, 'framework error');
      const started = performance.now();
      reply.raw.once('finish', () => {
        const ms = performance.now() - started;
        app.metrics.httpDuration.observe({ method: req.method, route: UNMATCHED_ROUTE, status }, ms / 1000);
        req.log.info({ res: { statusCode: status }, responseTime: ms }, 'request completed');
      });
      void (reply as unknown as FastifyReply)
        .status(status)
        .header('x-request-id', req.id)
        .headers(API_HEADERS)
        .send({
          code: status,
          msg: bad ? '请求地址格式不正确' : '服务器错误',
          data: bad ? null : { requestId: req.id },
        });
    },
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    // Fastify's default 10 s per plugin is too short for an instance restarted on a saturated host
    // (the topology test saw the static plugin, which loads the render build, exceed it at load 30).
    pluginTimeout: 60_000,
  });
  // Bodies and queries are made well-formed as they are validated (plugins/app/well-formed.ts); a query's
  // empty values count as absent (plugins/app/query-rules.ts).
  app.setValidatorCompiler(queryRulesCompiler(wellFormedCompiler(validatorCompiler)));
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  // Set on arrival: Fastify keeps headers set before an error on the error's answer.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    // Shutting down: the client's next request opens a connection elsewhere (the load balancer's). A
    // request that arrived before draining began answers without it; the next on its connection has it.
    if (app.draining) reply.header('connection', 'close');
    done();
  });

  await app.register(errorsPlugin);
  await app.register(metricsPlugin);
  await app.register(securityPlugin);
  await app.register(dbPlugin, { database: opts.database, schemaName: opts.schemaName });
  await app.register(redisPlugin, { redis: opts.redis });
  await app.register(swaggerPlugin);
  await app.register(servicesPlugin, { limiterPrefix: opts.limiterPrefix });
  await app.register(authPlugin);
  // Before well-formed: every API route has a (strict) query schema by the time that plugin looks.
  await app.register(queryRulesPlugin);
  await app.register(wellFormedPlugin);

  await app.register(authRoutes);
  await app.register(staffRoutes);
  await app.register(channelRoutes);
  await app.register(analyticsRoutes);
  await app.register(geoRoutes);
  await app.register(systemRoutes);
  await app.register(applicationRoutes);
  await app.register(matchingRoutes);
  await app.register(consentRoutes);
  await app.register(deliveryRoutes);
  await app.register(import('./modules/conversions/routes.ts'));
  await app.register(import('./modules/conversions/admin-routes.ts'));
  await app.register(import('./modules/conversions/reports-admin-routes.ts'));
  await app.register(import('./modules/conversions/sandbox-routes.ts'));
  await app.register(import('./modules/catalog/routes.ts'));
  await app.register(import('./modules/uploads/routes.ts'));
  await app.register(import('./modules/credit-info/routes.ts'));
  await app.register(import('./modules/verification/routes.ts'));
  await app.register(import('./modules/privacy/routes.ts'));
  await app.register(import('./modules/content/routes.ts'));
  await app.register(import('./modules/site/routes.ts'));
  await app.register(import('./modules/admin-channels/routes.ts'));
  await app.register(import('./modules/admin-operators/routes.ts'));
  await app.register(import('./modules/admin-catalog/routes.ts'));
  await app.register(import('./modules/pricing/admin-routes.ts'));
  await app.register(import('./modules/channel-costs/admin-routes.ts'));
  await app.register(import('./modules/returns/routes.ts'));
  await app.register(import('./modules/returns/admin-routes.ts'));
  await app.register(import('./modules/settlement/admin-routes.ts'));
  await app.register(import('./modules/outcomes/reconcile-routes.ts'));
  await app.register(import('./modules/outcomes/admin-routes.ts'));
  await app.register(import('./modules/admin-leads/routes.ts'));
  await app.register(import('./modules/funnel/routes.ts'));
  await app.register(import('./modules/roi/admin-routes.ts'));
  await app.register(import('./modules/rum/routes.ts'));

  for (const plugin of opts.plugins ?? []) await app.register(plugin);

  if (opts.serveStatic !== false) {
    await app.register(staticPlugin);
  } else {
    app.setNotFoundHandler((req, reply) => {
      if (refuseMethod(req, reply)) return;
      void reply
        .status(404)
        .send({ code: 404, msg: `请求的资源不存在：${req.method} ${req.url.split('?')[0]}`, data: null });
    });
  }

  if (config.NODE_ENV !== 'production') {
    await seedDemoChannels(app.database.db);
    await (await import('./modules/conversions/seed.ts')).seedDemoConversions(
      app.database.db,
      app.services.keys.ring,
    );
    await (await import('./modules/content/seed.ts')).seedDemoArticles(app.database.db);
    await (await import('./modules/site/seed.ts')).seedSiteDemo(app.database.db);
    await seedDemoProducts(
      app.database.db,
      app.services.keys.ring,
      partnerSandboxOn(config) ? partnerSandboxBase(config) : undefined,
    );
  }
  if ((config.DELIVERY_WORKER ?? (config.NODE_ENV === 'test' ? 'off' : 'inline')) === 'inline') {
    app.addHook('onListen', async () => app.services.delivery.start(config.DELIVERY_POLL_MS));
    // The worker stops while the requests in flight finish (not before the listener closes); what it
    // has not finished within the shutdown budget is given back (none stays claimed).
    let stopping: Promise<number> | null = null;
    app.addHook('preClose', async () => {
      stopping = app.services.delivery.stop(Math.max(0, config.SHUTDOWN_TIMEOUT_MS - 2000));
    });
    app.addHook('onClose', async () => {
      await stopping;
    });
  }
  await app.ready();
  return app;
}
