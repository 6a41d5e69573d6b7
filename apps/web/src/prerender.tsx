/**
 * Build-time pre-render of the pages a visitor from an ad lands on, with the default channel
 * configuration, and of the application form's frame. `scripts/prerender.mjs` puts the HTML into the built pages so that the first paint
 * does not wait for JavaScript; the client then renders the real page (its channel's skin) over it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { FillInformationShell } from './app/routes/fill-information';
import { LandingRoute } from './app/routes/landing';
import { LoginRoute } from './app/routes/login';

export const SHELLS = {
  '/': () => <LandingRoute />,
  '/login': () => <LoginRoute />,
  // The form's frame (header, banner, a placeholder): see FormPageShell.
  '/fill-information': () => <FillInformationShell />,
} as const;

export function render(path: keyof typeof SHELLS): string {
  const Page = SHELLS[path];
  return renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Page />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
