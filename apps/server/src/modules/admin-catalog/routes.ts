import type { FastifyPluginAsync } from 'fastify';

/** Issue 7: filled in by the admin-catalog work. */
const adminCatalogRoutes: FastifyPluginAsync = async () => {};

export default adminCatalogRoutes;
