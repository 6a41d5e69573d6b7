import type { FastifyPluginAsync } from 'fastify';

/** Issue 6: filled in by the content work. */
const contentRoutes: FastifyPluginAsync = async () => {};

export default contentRoutes;
