import type { FastifyPluginAsync } from 'fastify';

/** Issue 7: filled in by the admin-channels work. */
const adminChannelsRoutes: FastifyPluginAsync = async () => {};

export default adminChannelsRoutes;
