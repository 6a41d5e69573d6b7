import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import { inlineScriptHashes } from '../../lib/csp.ts';
import { storageOrigins } from '../../providers/storage/index.ts';
import { WEB_DIST_DEFAULT } from './static.ts';

/** Security headers. Styles allow inline: antd and antd-mobile inject their CSS at run time. */
export default fp(
  async (app) => {
    // The H5's pages carry one small inline script (apps/web/public/boot.js, run before first paint).
    const scriptHashes = inlineScriptHashes(app.config.WEB_DIST ?? WEB_DIST_DEFAULT);
    // With Aliyun OSS the browser posts uploads to the bucket and shows public images from it.
    const storage = storageOrigins(app.config);
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...scriptHashes],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...storage],
          connectSrc: ["'self'", ...storage],
          fontSrc: ["'self'", 'data:'],
          frameSrc: ["'self'", 'https:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          // Same-origin framing only: the console's live channel preview frames the H5 (issue 7).
          frameAncestors: ["'self'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    });
  },
  { name: 'security' },
);
