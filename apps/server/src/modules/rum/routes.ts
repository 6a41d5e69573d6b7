import type { FastifyPluginAsync } from 'fastify';

/** Issue 8: real-user monitoring (filled in by the RUM work). */
const rumRoutes: FastifyPluginAsync = async () => {};

export default rumRoutes;
