// Runs before the first paint (a tiny blocking script, inline in every page; ADR 065).
// 1. A page whose first screen the server rendered (<html data-ssr> names it; data-ssr-path the address it
//    was rendered for) shows it: the application form's frame and the authorise page of a re-match link
//    look the same in every skin but for the channel colour, set here from the app's last visit
//    (features/skins/theme.ts keeps it per channel); a landing or login page is in the skin of the
//    channel it was rendered for (data-ssr-channel, '' for the default page), shown when that is the
//    visit's channel (the link's, else the one kept from an earlier visit), else left to the app.
// 2. The app's scripts wait in <template id="lm-app"> on such a page: they are requested once the screen
//    has painted. Kept for a figure (bench/web.mjs, 2026-12-05, ADR 065): with Vite's script tags left in the
//    page, 133.6 KB gz of JS was requested before the LCP on every ad URL (goal ≤ 130) and Lighthouse's
//    simulated LCP of two landings was 1.9 and 2.2 s (goal ≤ 1.2 s); started after the paint: 0 KB, ≤ 714 ms.
(() => {
  const doc = document;
  const html = doc.documentElement;
  let shown = false;
  try {
    const path = location.pathname.replace(/\/+$/, '') || '/';
    const rendered = html.dataset.ssr;
    const query = new URLSearchParams(location.search);
    const linkChannel = ['adChannelCode', 'source', 'apiChannelCode', 'adRouteCode'].some((k) =>
      (query.get(k) || '').trim(),
    );
    const stored = localStorage.getItem('ad_channel_code') || '';
    const channel = (query.get('adChannelCode') || '').trim() || stored;
    // The link's channel is kept at once, as the app's channel bootstrap keeps it when it starts
    // (lib/channel/resolve.ts; not in the console's preview): a tap on the server's page before
    // the app runs (an agreement link, a reload) must not lose it.
    const linkCode = query.get('previewToken')
      ? ''
      : ['adChannelCode', 'source', 'apiChannelCode'].map((k) => (query.get(k) || '').trim()).find(Boolean);
    if (linkCode) localStorage.setItem('ad_channel_code', linkCode);
    const renderedChannel = html.dataset.ssrChannel;
    shown =
      rendered !== undefined &&
      (html.dataset.ssrPath || rendered) === path &&
      (renderedChannel === undefined || linkChannel || renderedChannel === stored);
    if (shown) html.dataset.shell = rendered;
    else {
      delete html.dataset.shell;
      html.classList.add('lm-no-shell');
    }
    // The colours kept for the link's adChannelCode or the stored channel (not when the link names another
    // code the app has still to resolve), on a page not rendered in a channel's skin.
    const otherCode = ['source', 'apiChannelCode', 'adRouteCode'].some((k) => query.get(k));
    const theme = JSON.parse(localStorage.getItem('THEME_TOKENS') || 'null');
    if (theme && !otherCode && theme.channel === channel && renderedChannel === undefined) {
      for (const [name, value] of Object.entries(theme.tokens)) {
        if (name.startsWith('--')) html.style.setProperty(name, String(value));
      }
    }
  } catch (_error) {
    shown = false;
    delete html.dataset.shell;
    html.classList.add('lm-no-shell');
  }

  const app = doc.getElementById('lm-app');
  if (app) {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      // Fresh elements (a script cloned from a template does not run); the entry first.
      for (const from of app.content.children) {
        const el = doc.createElement(from.localName);
        for (const { name, value } of from.attributes) el.setAttribute(name, value);
        doc.head.appendChild(el);
      }
    };
    if (!shown || doc.visibilityState !== 'visible') start();
    else {
      // Once the screen has painted (first-contentful-paint), or at the latest a second after the page
      // was parsed and a frame drawn (no paint timing: at once then).
      let painted = false;
      try {
        if (PerformanceObserver.supportedEntryTypes.includes('paint')) {
          new PerformanceObserver((list, observer) => {
            if (list.getEntries().some((e) => e.name === 'first-contentful-paint')) {
              observer.disconnect();
              start();
            }
          }).observe({ type: 'paint', buffered: true });
          painted = true;
        }
      } catch (_error) {
        // No paint timing (below).
      }
      doc.addEventListener('DOMContentLoaded', () =>
        requestAnimationFrame(() => setTimeout(start, painted ? 1000 : 0)),
      );
      doc.addEventListener('visibilitychange', start, { once: true });
    }
  }

  // Taps on a server-rendered page before the app runs (ADR 022): its form is never submitted by the
  // browser (that would reload the page without its query), and the button tapped last is noted for
  // the app, which acts on it when it takes over (the login form sends the code that was asked for).
  const inShell = (e) => (e.target instanceof Element ? e.target.closest('#lm-shell') : null);
  doc.addEventListener('submit', (e) => inShell(e) && e.preventDefault(), true);
  doc.addEventListener(
    'click',
    (e) => {
      const button = inShell(e) && e.target.closest('button');
      if (button) html.dataset.shellTap = (button.textContent || '').trim();
    },
    true,
  );
})();
