import type { FastifyPluginAsync } from 'fastify';

/** Issue 7: filled in by the admin-leads work. */
const adminLeadsRoutes: FastifyPluginAsync = async () => {};

export default adminLeadsRoutes;
