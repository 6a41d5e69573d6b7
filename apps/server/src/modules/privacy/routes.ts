import type { FastifyPluginAsync } from 'fastify';

/** Issue 6: filled in by the privacy work. */
const privacyRoutes: FastifyPluginAsync = async () => {};

export default privacyRoutes;
