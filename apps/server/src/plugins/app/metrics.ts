import fp from 'fastify-plugin';
import { Metrics, UNMATCHED_ROUTE } from '../../lib/metrics.ts';

/**
 * The app's metrics (lib/metrics.ts) and the one per-request hook that times answers. The route
 * label is the route's template (`/api/products/:id`), or `unmatched` when no route matched.
 */
export default fp(
  async (app) => {
    const metrics = new Metrics();
    app.decorate('metrics', metrics);
    app.decorate('draining', false);
    const histogram = metrics.httpDuration;
    app.addHook('onResponse', (req, reply, done) => {
      histogram.observe(
        { method: req.method, route: req.routeOptions.url ?? UNMATCHED_ROUTE, status: reply.statusCode },
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
  { name: 'metrics' },
);
