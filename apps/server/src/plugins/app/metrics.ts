import fp from 'fastify-plugin';
import { Metrics, UNMATCHED_ROUTE } from '../../lib/metrics.ts';

/**
 * The app's metrics (lib/metrics.ts) and the per-request observation that times answers. The route
 * label is the route's template (`/api/products/:id`), or `unmatched` when no route matched.
 *
 * Each route gets its own `onResponse` hook (added by `onRoute`, so every route registered after this
 * plugin has it) holding that route's template and its labelled histogram children: no route options
 * object is built and no label object hashed per request (issue 17.3). Requests no route matched (the
 * not-found handler, malformed addresses) are observed by the one global hook, which passes the others.
 */
export default fp(
  async (app) => {
    const metrics = new Metrics();
    app.decorate('metrics', metrics);
    app.decorate('draining', false);
    app.addHook('onRoute', (route) => {
      const observe = metrics.requestObserver(route.url);
      const hook = (
        req: { method: string },
        reply: { statusCode: number; elapsedTime: number },
        done: () => void,
      ) => {
        observe(req.method, reply.statusCode, reply.elapsedTime / 1000);
        done();
      };
      const own = route.onResponse;
      route.onResponse = own === undefined ? [hook] : Array.isArray(own) ? [...own, hook] : [own, hook];
    });
    const unmatched = metrics.requestObserver(UNMATCHED_ROUTE);
    app.addHook('onResponse', (req, reply, done) => {
      if (req.is404) unmatched(req.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: 'metrics' },
);
