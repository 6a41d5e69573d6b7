import './styles/global.css';
import { nextTask } from './lib/next-task';

/**
 * The app starts in steps, each module graph evaluated in a task of its own with a yield between
 * them (issue 17.4): evaluated at once, the entry (React, react-dom, the router, the query client,
 * the app's modules) was one task of 100–400 ms at a phone's speed (CPU ×4), after the server's page
 * had painted — a page that looked ready but did not answer a tap. The files are requested together
 * (the route loader in vite.config.ts preloads them with the entry); only their evaluation is spread.
 *   1. the visit: channel bootstrap and click report, monitoring (start/visit.ts),
 *   2. React and react-dom (start/react.ts),
 *   3. the router and the query client (start/libs.ts),
 *   4. the app and its first render (start/app.tsx), itself rendered as a transition (time-sliced).
 */
async function boot(): Promise<void> {
  const { startVisit } = await import('./start/visit');
  startVisit();
  await nextTask();
  await import('./start/react');
  await nextTask();
  await import('./start/libs');
  await nextTask();
  const { startApp } = await import('./start/app');
  await nextTask();
  startApp();
}

void boot();
