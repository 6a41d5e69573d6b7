/**
 * The server's render module (ADR 065: the one way a first screen is rendered before the app runs). At
 * request time the server renders into the templates of scripts/prerender.mjs a channel's landing and
 * login pages (`renderChannelPage`, the default configuration's too), the application form's frame
 * (`renderForm`) and the authorise page of a link that carries its match (`renderAuthorize`, ADR 017).
 * The client then renders the real page over it (app/shell.ts).
 */
import type { H5Config } from '@lm/shared/channel';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { parseMatch } from '@/features/consent/matched-products';
import { readQueryOptions } from '@/features/consent/query-options';
import { type ChannelPagePath, channelPageHandle, resolveHead } from './app/route-handle';
import { FillInformationShell } from './app/routes/fill-information';
import { CommonAuthorizeRoute } from './app/routes/fill-information/common-authorize';
import { LandingRoute } from './app/routes/landing';
import { LoginRoute } from './app/routes/login';
import { CLEAR_PHONE_KEYS, ENCRYPTED_PHONE_KEYS } from './features/auth/phone-link';
import { resolveThemeColor, type ThemeTokens, themeTokens } from './features/skins/theme';
import { useChannelStore } from './lib/channel/store';

function toHtml(url: string, page: ReactNode): string {
  return renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[url]}>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The path `renderForm` renders. */
export const FORM_PATH = '/fill-information';

/** The application form's frame (header, banner, a placeholder: FormPageShell), the same for everybody. */
export function renderForm(): string {
  return toHtml(FORM_PATH, <FillInformationShell />);
}

/** The path `renderAuthorize` renders. */
export const AUTHORIZE_PATH = '/fill-information/common-authorize';

/**
 * The authorise page of a re-match link that carries its result (`?options={"rqResult":…}` or
 * `?rqResult=…`: a partner's or an older link), as the app renders it from that link with the default
 * channel configuration; null when the link carries no offer. Our own links name the match by its
 * `matchKey` (issue 16.8): null too — the match is the signed-in person's and the page request
 * carries no session (the access token is the app's, sent by its API calls), so the app loads it
 * (ADR 021).
 * `search` is the query string as received (with or without `?`); its values are text to React.
 */
export function renderAuthorize(search: string): string | null {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (parseMatch(readQueryOptions(query).rqResult).products.length === 0) return null;
  return toHtml(`${AUTHORIZE_PATH}?${query}`, <CommonAuthorizeRoute />);
}

/** The pages the server renders in a channel's skin (issue 17.1): path → the shell it fills. */
export const CHANNEL_PAGES: Readonly<Record<ChannelPagePath, '/' | '/login'>> = {
  '/': '/',
  '/download': '/',
  '/login': '/login',
  '/getQuota': '/login',
  '/h5': '/login',
};
const CHANNEL_SHELLS = {
  '/': () => <LandingRoute serverRendered />,
  '/login': () => <LoginRoute />,
} as const;

export interface ChannelPage {
  /** The page's markup (the shell's content). */
  html: string;
  /** The shell it fills (`/` or `/login`). */
  shell: '/' | '/login';
  /** The document title and favicon (the channel's, else the page's own, as the app sets them). */
  title: string;
  icon: string;
  /** The channel colour's design tokens, for <html style> (what the app sets, features/skins/theme.ts). */
  tokens: ThemeTokens;
}

/**
 * A landing or login page as the app renders it for a channel whose configuration has loaded
 * (`config`: the h5Config answer), at `path` with the query `search` (which must not change the
 * markup: the server caches the page per channel configuration). The app, started with the same
 * configuration (inlined in the page), renders the same markup over it. Synchronous: the channel store
 * is set for this render only.
 */
export function renderChannelPage(path: ChannelPagePath, search: string, config: H5Config): ChannelPage {
  const shell = CHANNEL_PAGES[path];
  const query = search.startsWith('?') ? search.slice(1) : search;
  const url = query ? `${path}?${query}` : path;
  const store = useChannelStore.getState();
  const before = { adChannelCode: store.adChannelCode, config: store.config, status: store.status };
  useChannelStore.setState({ adChannelCode: config.adChannelCode, config, status: 'ready' });
  try {
    const Page = CHANNEL_SHELLS[shell];
    const head = resolveHead([channelPageHandle(path)], new URLSearchParams(query), config);
    return {
      html: toHtml(url, <Page />),
      shell,
      title: head.title,
      icon: head.icon,
      tokens: themeTokens(resolveThemeColor(config.themeColor, config.theme), config.theme),
    };
  } finally {
    useChannelStore.setState(before);
  }
}

/**
 * Query keys that change the markup of these pages: a phone carried by the link (prefilled or shown
 * masked, features/auth/phone-link.ts), the landing's expired-share note, the console's preview. The
 * server renders a channel page once per configuration, so links with these are left to the app.
 */
export const CHANNEL_PAGE_MARKUP_KEYS = [
  ...ENCRYPTED_PHONE_KEYS,
  ...CLEAR_PHONE_KEYS,
  'linkExpired',
  'previewToken',
] as const;
