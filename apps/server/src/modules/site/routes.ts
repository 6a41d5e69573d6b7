import type { FastifyPluginAsync } from 'fastify';

/** Issue 6: filled in by the site work. */
const siteRoutes: FastifyPluginAsync = async () => {};

export default siteRoutes;
