import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';

/** The slot of dist-ssr/authorize.html that receives the rendered page (apps/web/scripts/prerender.mjs). */
const SSR_SLOT = '<!--lm-ssr-->';

interface RenderModule {
  AUTHORIZE_PATH: string;
  renderAuthorize(search: string): string | null;
}

export interface WebPageRenderer {
  /** The path it renders. */
  path: string;
  /** The whole page for this query string, or null when the link carries nothing to render. */
  render(search: string): string | null;
}

/**
 * The H5's request-time renderer (ADR 017): the web build's render module and the authorise page's
 * template, both in `dist-ssr` beside the served `dist`. Null when that build is absent (then the
 * page is served as index.html and the app renders it, as before).
 */
export async function loadWebPageRenderer(webDir: string): Promise<WebPageRenderer | null> {
  const dir = resolve(webDir, '../dist-ssr');
  const modulePath = join(dir, 'prerender.js');
  const templatePath = join(dir, 'authorize.html');
  if (!existsSync(modulePath) || !existsSync(templatePath)) return null;
  // The template names the build's hashed asset files: re-read when a new build replaced it (as
  // index.html is read per request), so a rebuild under a running server never serves stale names.
  let loaded = { mtimeMs: -1, head: '', tail: '' };
  const template = () => {
    const { mtimeMs } = statSync(templatePath);
    if (mtimeMs !== loaded.mtimeMs) {
      const [head, tail, ...rest] = readFileSync(templatePath, 'utf8').split(SSR_SLOT);
      if (head === undefined || tail === undefined || rest.length > 0) {
        throw new Error(`${templatePath}: expected exactly one ${SSR_SLOT}`);
      }
      loaded = { mtimeMs, head, tail };
    }
    return loaded;
  };
  template();
  const mod = (await import(pathToFileURL(modulePath).href)) as RenderModule;
  if (typeof mod.renderAuthorize !== 'function' || typeof mod.AUTHORIZE_PATH !== 'string') {
    throw new Error(`${modulePath}: no renderAuthorize`);
  }
  return {
    path: mod.AUTHORIZE_PATH,
    render(search) {
      const body = mod.renderAuthorize(search);
      if (body === null) return null;
      const { head, tail } = template();
      return head + body + tail;
    },
  };
}

/**
 * A rendered page compressed for the client: brotli at a fast level (the page differs per link, so
 * it cannot be compressed at build time like the static pages), else gzip, else as is.
 */
export function encodePage(
  html: string,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding: 'br' | 'gzip' | null } {
  const raw = Buffer.from(html, 'utf8');
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => q === undefined || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name?.trim().toLowerCase()),
  );
  const accepts = (name: string) => accepted.has(name);
  if (accepts('br')) {
    return {
      body: brotliCompressSync(raw, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: 5,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      encoding: 'br',
    };
  }
  if (accepts('gzip')) return { body: gzipSync(raw, { level: 6 }), encoding: 'gzip' };
  return { body: raw, encoding: null };
}
