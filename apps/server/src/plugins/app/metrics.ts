import fp from 'fastify-plugin';
import { Metrics, UNMATCHED_ROUTE } from '../../lib/metrics.ts';

/**
 * The app's metrics (lib/metrics.ts) and the one `onResponse` hook that times every answer into prom-client's
 * request histogram. The route label is the route's template (`/api/products/:id`), or `unmatched` when no
 * route matched (the not-found handler: pages, files, scanners), so addresses never become label values.
 */
export default fp(
  async (app) => {
    const metrics = new Metrics();
    app.decorate('metrics', metrics);
    app.decorate('draining', false);
    app.addHook('onResponse', (req, reply, done) => {
      metrics.httpDuration.observe(
        {
          method: req.method,
          route: req.is404 ? UNMATCHED_ROUTE : (req.routeOptions.url ?? UNMATCHED_ROUTE),
          status: reply.statusCode,
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
  { name: 'metrics' },
);
