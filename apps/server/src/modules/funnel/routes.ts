import type { FastifyPluginAsync } from 'fastify';

/** Issue 7: filled in by the funnel work. */
const funnelRoutes: FastifyPluginAsync = async () => {};

export default funnelRoutes;
