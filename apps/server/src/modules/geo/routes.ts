import {
  excludeCityData,
  excludeCityQuery,
  reportDeviceBody,
  reportDeviceData,
} from '@lm/shared/schemas/geo';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../lib/envelope.ts';

const tags = ['location'];

function headerToken(req: FastifyRequest): string | undefined {
  const value = req.headers.accesstoken;
  return Array.isArray(value) ? value[0] : value;
}

/** Spec §7: GET /api/third/baiduMap/excludeCity and POST /api/reportDevice. */
const geoRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { geo } = app.services;

  app.get(
    '/api/third/baiduMap/excludeCity',
    {
      schema: {
        tags,
        summary:
          "Visitor's province and city (from coordinates, else the IP) and whether the channel excludes it",
        querystring: excludeCityQuery,
        refusals: [404, 429],
        response: { 200: envelope(excludeCityData) },
      },
    },
    async (req) => ok(await geo.excludeCity(req.query, req.ip)),
  );

  app.post(
    '/api/reportDevice',
    {
      schema: {
        tags,
        summary: 'Report the province and city of the device (post-login location flow)',
        body: reportDeviceBody,
        refusals: [429],
        response: { 200: envelope(reportDeviceData) },
      },
    },
    async (req) => ok(await geo.reportDevice(req.body, req.ip, headerToken(req))),
  );
};

export default geoRoutes;
