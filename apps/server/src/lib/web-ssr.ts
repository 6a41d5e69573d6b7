import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { H5Config } from '@lm/shared/channel';

/** The slot of dist-ssr/authorize.html that receives the rendered page (apps/web/scripts/prerender.mjs). */
const SSR_SLOT = '<!--lm-ssr-->';

/** What `renderChannelPage` of the web's render module answers (apps/web/src/prerender.tsx). */
export interface RenderedChannelPage {
  html: string;
  shell: '/' | '/login';
  title: string;
  icon: string;
  tokens: Record<string, string>;
}

interface RenderModule {
  AUTHORIZE_PATH: string;
  renderAuthorize(search: string): string | null;
  FORM_PATH: string;
  renderForm(): string;
  CHANNEL_PAGES?: Record<string, '/' | '/login'>;
  CHANNEL_PAGE_MARKUP_KEYS?: readonly string[];
  renderChannelPage?(path: string, search: string, config: H5Config): RenderedChannelPage;
}

/** A channel's landing or login page for one address (issue 17.1). */
export interface ChannelPageRenderer {
  /** The addresses rendered (`/`, `/download`, `/login`, `/getQuota`, `/h5`). */
  paths: ReadonlySet<string>;
  /** Query keys that change the markup (a phone in the link …): such links are not rendered. */
  markupKeys: readonly string[];
  /**
   * Identifies the build (templates and render module): part of every cache key, so a rebuild under
   * a running server never serves pages naming old asset files.
   */
  version(): string;
  /**
   * The whole page of `path` for the channel configuration `config` (the h5Config answer, inlined for
   * the app) and the route code exchange of the link, if any.
   */
  render(path: string, config: H5Config, route: InlinedRoute | null): string;
}

export interface InlinedRoute {
  adRouteCode: string;
  adChannelCode: string;
  planTargetUrl: string | null;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** JSON inside <script type="application/json">: nothing in it can close the element or open a comment. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * How often the channel pages' templates are checked for a rebuild: not on every request of an ad
 * burst (a page served within this time after a rebuild may name the previous build's files).
 */
const CHANNEL_TEMPLATE_CHECK_MS = 1000;

/**
 * A template read from a file and re-read when the file changes (a rebuild), checked at most every
 * `checkMs` (0: on every use).
 */
function watchedTemplate(path: string, parse: (text: string) => string[], checkMs = 0) {
  let loaded = { mtimeMs: -1, parts: [] as string[] };
  let checkedAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = performance.now();
    if (checkMs > 0 && now - checkedAt < checkMs) return loaded;
    checkedAt = now;
    const { mtimeMs } = statSync(path);
    if (mtimeMs !== loaded.mtimeMs) loaded = { mtimeMs, parts: parse(readFileSync(path, 'utf8')) };
    return loaded;
  };
}

const CHANNEL_MARKERS = [
  '__LM_HTML_ATTRS__',
  '__LM_THEME_COLOR__',
  '__LM_ICON__',
  '__LM_TITLE__',
  SSR_SLOT,
  '__LM_DATA__',
] as const;

/** Splits a channel template at its markers, in their order in the file (each exactly once). */
function splitChannelTemplate(file: string, text: string): string[] {
  const parts: string[] = [];
  let rest = text;
  for (const marker of CHANNEL_MARKERS) {
    const at = rest.indexOf(marker);
    if (at < 0 || rest.indexOf(marker, at + marker.length) >= 0 || text.split(marker).length !== 2) {
      throw new Error(`${file}: expected ${marker} exactly once, in order`);
    }
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + marker.length);
  }
  parts.push(rest);
  return parts;
}

/**
 * The channel pages' renderer: the render module's `renderChannelPage` and the two templates
 * (`dist-ssr/channel-landing.html`, `channel-login.html`). Null when that build is absent or older.
 */
export async function loadChannelPageRenderer(webDir: string): Promise<ChannelPageRenderer | null> {
  const dir = resolve(webDir, '../dist-ssr');
  const modulePath = join(dir, 'prerender.js');
  const files = { '/': join(dir, 'channel-landing.html'), '/login': join(dir, 'channel-login.html') };
  if (!existsSync(modulePath) || !existsSync(files['/']) || !existsSync(files['/login'])) return null;
  const template = (file: string) =>
    watchedTemplate(file, (text) => splitChannelTemplate(file, text), CHANNEL_TEMPLATE_CHECK_MS);
  const templates = { '/': template(files['/']), '/login': template(files['/login']) };
  templates['/']();
  templates['/login']();
  const mod = (await import(pathToFileURL(modulePath).href)) as RenderModule;
  const { renderChannelPage, CHANNEL_PAGES, CHANNEL_PAGE_MARKUP_KEYS } = mod;
  if (typeof renderChannelPage !== 'function' || !CHANNEL_PAGES || !CHANNEL_PAGE_MARKUP_KEYS) {
    throw new Error(`${modulePath}: no renderChannelPage`);
  }
  const moduleMtime = statSync(modulePath).mtimeMs;
  let versionOf: { landing: unknown; login: unknown; text: string } = {
    landing: null,
    login: null,
    text: '',
  };
  return {
    paths: new Set(Object.keys(CHANNEL_PAGES)),
    markupKeys: CHANNEL_PAGE_MARKUP_KEYS,
    version: () => {
      // Asked for every landing: the same string while the templates are the same, not a new one each time.
      const landing = templates['/']();
      const login = templates['/login']();
      if (versionOf.landing !== landing || versionOf.login !== login)
        versionOf = { landing, login, text: `${moduleMtime}:${landing.mtimeMs}:${login.mtimeMs}` };
      return versionOf.text;
    },
    render(path, config, route) {
      const page = renderChannelPage(path, '', config);
      const parts = templates[page.shell]().parts;
      const style = Object.entries(page.tokens)
        .map(([name, value]) => `${name}:${value}`)
        .join(';');
      const attrs =
        // data-shell shows the page before boot.js runs (and without script at all).
        `data-ssr="${escapeHtml(page.shell)}" data-shell="${escapeHtml(page.shell)}" data-ssr-path="${escapeHtml(path)}" ` +
        `data-ssr-channel="${escapeHtml(config.adChannelCode)}" style="${escapeHtml(style)}"`;
      const values = [
        attrs,
        escapeHtml(page.tokens['--app-primary'] ?? ''),
        escapeHtml(page.icon),
        escapeHtml(page.title),
        page.html,
        scriptJson({ adChannelCode: config.adChannelCode, config, route }),
      ];
      return parts.map((part, i) => part + (values[i] ?? '')).join('');
    },
  };
}

export interface WebPageRenderer {
  /** The path it renders. */
  path: string;
  /** The whole page for this query string, or null when the link carries nothing to render. */
  render(search: string): string | null;
  /** The application form's address. */
  formPath: string;
  /** The application form's page with its frame (the same for everybody; rendered once per build). */
  form(): string;
}

/**
 * The H5's request-time renderer of the authorise page (ADR 017) and the application form's frame: the
 * web build's render module and their templates, in `dist-ssr` beside the served `dist`. Null when that
 * build is absent (then index.html serves them and the app renders them).
 */
export async function loadWebPageRenderer(webDir: string): Promise<WebPageRenderer | null> {
  const dir = resolve(webDir, '../dist-ssr');
  const modulePath = join(dir, 'prerender.js');
  const templatePath = join(dir, 'authorize.html');
  const formPath = join(dir, 'form.html');
  if (!existsSync(modulePath) || !existsSync(templatePath) || !existsSync(formPath)) return null;
  // The template names the build's hashed asset files: re-read when a new build replaced it (as
  // index.html is read per request), so a rebuild under a running server never serves stale names.
  const template = watchedTemplate(templatePath, (text) => {
    const parts = text.split(SSR_SLOT);
    if (parts.length !== 2) throw new Error(`${templatePath}: expected exactly one ${SSR_SLOT}`);
    return parts;
  });
  const formTemplate = watchedTemplate(formPath, (text) => {
    const parts = text.split(SSR_SLOT);
    if (parts.length !== 2) throw new Error(`${formPath}: expected exactly one ${SSR_SLOT}`);
    return parts;
  });
  template();
  formTemplate();
  const mod = (await import(pathToFileURL(modulePath).href)) as RenderModule;
  if (typeof mod.renderAuthorize !== 'function' || typeof mod.AUTHORIZE_PATH !== 'string') {
    throw new Error(`${modulePath}: no renderAuthorize`);
  }
  if (typeof mod.renderForm !== 'function' || typeof mod.FORM_PATH !== 'string') {
    throw new Error(`${modulePath}: no renderForm`);
  }
  const frame = mod.renderForm();
  let form = { parts: [] as string[], page: '' };
  return {
    path: mod.AUTHORIZE_PATH,
    render(search) {
      const body = mod.renderAuthorize(search);
      if (body === null) return null;
      const [head, tail] = template().parts;
      return `${head}${body}${tail}`;
    },
    formPath: mod.FORM_PATH,
    form() {
      const { parts } = formTemplate();
      if (parts !== form.parts) form = { parts, page: `${parts[0]}${frame}${parts[1]}` };
      return form.page;
    },
  };
}

const encodingChoice = new Map<string, 'br' | 'gzip' | null>();

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses).
 * Answers are remembered per header value (browsers send a handful of values).
 */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const header = acceptEncoding ?? '';
  const known = encodingChoice.get(header);
  if (known !== undefined) return known;
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => q === undefined || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name?.trim().toLowerCase()),
  );
  const choice = accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
  if (encodingChoice.size < 256) encodingChoice.set(header, choice);
  return choice;
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
  const encoding = preferredEncoding(acceptEncoding);
  if (encoding === 'br') {
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
  if (encoding === 'gzip') return { body: gzipSync(raw, { level: 6 }), encoding: 'gzip' };
  return { body: raw, encoding: null };
}
