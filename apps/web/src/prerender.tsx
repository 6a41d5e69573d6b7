/**
 * Pre-rendering (ADR 013). At build time, `scripts/prerender.mjs` renders the pages a visitor from an
 * ad lands on, with the default channel configuration, and the application form's frame, into the
 * built pages, so that the first paint does not wait for JavaScript. At request time the server
 * renders the authorise page of a link that carries its match (`renderAuthorize`, ADR 017). In both
 * cases the client then renders the real page (its channel's skin) over the pre-rendered one.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { parseMatch } from './app/common/matched-products';
import { readQueryOptions } from './app/common/query-options';
import { FillInformationShell } from './app/routes/fill-information';
import { CommonAuthorizeRoute } from './app/routes/fill-information/common-authorize';
import { LandingRoute } from './app/routes/landing';
import { LoginRoute } from './app/routes/login';

export const SHELLS = {
  '/': () => <LandingRoute />,
  '/login': () => <LoginRoute />,
  // The form's frame (header, banner, a placeholder): see FormPageShell.
  '/fill-information': () => <FillInformationShell />,
} as const;

function toHtml(url: string, page: ReactNode): string {
  return renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[url]}>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

export function render(path: keyof typeof SHELLS): string {
  const Page = SHELLS[path];
  return toHtml(path, <Page />);
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
