import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode, errorCatalogue } from '@lm/shared/errors';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_ROOT } from '../../lib/server-root.ts';
import {
  encodePage,
  loadChannelPageRenderer,
  loadWebPageRenderer,
  preferredEncoding,
  type WebPageRenderer,
} from '../../lib/web-ssr.ts';
import { EDGE_CACHE_SECONDS } from '../../modules/channels/cache.ts';
import { ChannelPages, pageAddressOf, type ServedChannelPage } from '../../modules/channels/pages.ts';
import { refuseMethod } from '../app/errors.ts';
import { markH5Page } from './security.ts';

// apps/web/dist and apps/admin/dist beside apps/server, from the sources and from the build alike (ADR 064).
export const WEB_DIST_DEFAULT = resolve(SERVER_ROOT, '../web/dist');
const DEFAULT_ADMIN = resolve(SERVER_ROOT, '../admin/dist');

/** A page of the web build as @fastify/static sends it: the HTML file or its precompressed twin. */
const H5_FILE = /\.html(\.(br|gz))?$/;

/** A channel page the same for everybody with its codes: revalidated by browsers, kept briefly by nginx (ADR 062). */
const SHARED_PAGE_CACHE = `public, max-age=0, s-maxage=${EDGE_CACHE_SECONDS}`;

/** Whether `file` (an absolute path) lies inside the directory `dir`. */
function isWithin(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * Serves the built H5 at / and the console at /admin; unknown paths of each fall back to their
 * index.html (client-side routes), unknown /api paths answer the 404 envelope.
 */
export default fp(
  async (app) => {
    const webDir = app.config.WEB_DIST ?? WEB_DIST_DEFAULT;
    const webRoot = resolve(webDir);
    const adminDir = app.config.ADMIN_DIST ?? DEFAULT_ADMIN;
    const hasWeb = existsSync(resolve(webDir, 'index.html'));
    const hasAdmin = existsSync(resolve(adminDir, 'index.html'));
    if (!hasWeb) app.log.warn({ webDir }, 'web app not built (npm run build:ui); / answers 404');
    if (!hasAdmin) app.log.warn({ adminDir }, 'console not built (npm run build:ui); /admin answers 404');
    // The authorise page of a re-match link is rendered here (ADR 017); without the render build,
    // index.html serves it and the app renders it.
    let renderer: WebPageRenderer | null = null;
    if (hasWeb) {
      try {
        renderer = await loadWebPageRenderer(webDir);
      } catch (err) {
        app.log.error({ err }, 'the H5 render build is unusable; the authorise page is rendered by the app');
      }
      if (!renderer)
        app.log.warn({ webDir }, 'no H5 render build (apps/web/dist-ssr): pages render in the browser');
    }

    // A channel's landing and login pages, rendered in its skin (issue 17.1, ADR 022), and the default
    // configuration's for a link without a code (ADR 065).
    let channelPages: ChannelPages | null = null;
    if (hasWeb) {
      try {
        const pageRenderer = await loadChannelPageRenderer(webDir);
        if (pageRenderer) {
          channelPages = new ChannelPages({
            channels: app.services.channels,
            renderer: pageRenderer,
            log: app.log,
          });
        } else {
          app.log.warn(
            { webDir },
            'no channel page templates in dist-ssr: landing and login pages render in the browser',
          );
        }
      } catch (err) {
        app.log.error(
          { err },
          'the channel page render build is unusable; landing and login pages render in the browser',
        );
      }
    }
    const sendChannelPage = (
      req: { url: string; headers: Record<string, string | string[] | undefined> },
      reply: FastifyReply,
      { page, sharedKey }: ServedChannelPage,
    ) => {
      // The same for every link with the same codes (not an A/B arm): a shared cache may keep it a few seconds
      // under the key named beside it (ADR 062); a browser asks again each time (its etag makes that a 304).
      if (sharedKey !== null)
        reply.header('cache-control', SHARED_PAGE_CACHE).header('x-shared-key', sharedKey);
      else reply.header('cache-control', 'no-cache');
      reply
        .status(200)
        .header('vary', 'accept-encoding')
        .header('etag', page.etag)
        .type('text/html; charset=utf-8');
      markH5Page(reply);
      if (req.headers['if-none-match'] === page.etag) return reply.status(304).send();
      const accept = req.headers['accept-encoding'];
      const encoding = preferredEncoding(Array.isArray(accept) ? accept.join(',') : accept);
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.raw);
    };

    const setHeaders = (reply: { header(k: string, v: string): unknown }, path: string) => {
      reply.header(
        'cache-control',
        /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      // The H5's pages (index.html; also when sent as the fallback of a client-side route, and
      // as their precompressed files: index.html.br to a browser that accepts brotli).
      if (H5_FILE.test(path) && isWithin(webRoot, path)) markH5Page(reply);
    };
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: webDir,
        prefix: '/',
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders,
      });
    }
    if (hasAdmin) {
      await app.register(fastifyStatic, {
        root: adminDir,
        prefix: '/admin/',
        wildcard: false,
        index: false,
        decorateReply: !hasWeb,
        preCompressed: true,
        setHeaders,
      });
    }

    app.setNotFoundHandler(async (req, reply) => {
      // A path some route answers with other methods: 405 with Allow, not a page or a 404.
      if (refuseMethod(req, reply)) return reply;
      const path = req.url.split('?')[0] ?? '';
      const isPage = req.method === 'GET' || req.method === 'HEAD';
      if (!path.startsWith('/api') && isPage) {
        const { path: bare, search: query } = pageAddressOf(req.url);
        if (channelPages?.handles(bare)) {
          let page: ServedChannelPage | null = null;
          try {
            page = await channelPages.page(bare, query, req.ip);
          } catch (err) {
            // The app still serves the visitor (index.html).
            req.log.warn({ err }, 'channel page unavailable; serving the default page');
          }
          if (page) return sendChannelPage(req, reply, page);
        }
        const hasExt = /\.[a-z0-9]+$/i.test(path);
        if (!hasExt && (path === '/admin' || path.startsWith('/admin/')) && hasAdmin) {
          return reply.header('cache-control', 'no-cache').sendFile('index.html', adminDir);
        }
        if (renderer && ((bare === renderer.path && query.length > 0) || bare === renderer.formPath)) {
          let html: string | null = null;
          try {
            html = bare === renderer.formPath ? renderer.form() : renderer.render(query);
          } catch (err) {
            // The app renders the page from the same link (and shows what it makes of it).
            req.log.warn({ err, path: bare }, 'server render failed; serving index.html');
          }
          if (html !== null) {
            const { body, encoding } = encodePage(html, req.headers['accept-encoding']);
            if (encoding) reply.header('content-encoding', encoding);
            markH5Page(reply);
            return reply
              .header('cache-control', 'no-cache')
              .header('vary', 'accept-encoding')
              .type('text/html; charset=utf-8')
              .send(body);
          }
        }
        if (!hasExt && !path.startsWith('/admin') && hasWeb) {
          return reply.header('cache-control', 'no-cache').sendFile('index.html', webDir);
        }
      }
      return reply.status(404).send({
        code: ErrorCode.NOT_FOUND,
        msg: `${errorCatalogue.NOT_FOUND.msg}：${req.method} ${path}`,
        data: null,
      });
    });
  },
  { name: 'static', dependencies: ['errors', 'services'] },
);
