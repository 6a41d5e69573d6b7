// Runs before the first paint (a tiny blocking script; CSP allows only same-origin scripts).
// Shows the pre-rendered shell of the visit's page, if it has one: the landing and login shells are
// the default skin, hidden when the visit comes with a channel (whose own skin the app renders); the
// application form's frame and a page the server rendered for this request (<html data-ssr>, the
// authorise page of a re-match link) look the same in every skin but for the channel colour, which
// is set here from the app's last visit (features/skins/theme.ts keeps it per channel). A channel's
// landing or login page the server rendered in its skin (data-ssr names the shell, data-ssr-path the
// address it was rendered for, data-ssr-channel the channel; issue 17.1) is shown as it is, in the
// colours the server set on <html>.
(() => {
  const html = document.documentElement;
  try {
    const path = location.pathname.replace(/\/+$/, '') || '/';
    const rendered = html.dataset.ssr;
    const renderedFor = html.dataset.ssrPath || rendered;
    const shellPath =
      rendered !== undefined && renderedFor === path
        ? rendered
        : {
            '/': '/',
            '/download': '/',
            '/login': '/login',
            '/getQuota': '/login',
            '/h5': '/login',
            '/fill-information': '/fill-information',
          }[path];
    const skinFree = shellPath === '/fill-information' || (rendered !== undefined && renderedFor === path);
    const query = new URLSearchParams(location.search);
    const linkChannel = ['source', 'apiChannelCode', 'adRouteCode'].some((k) => query.get(k));
    const stored = localStorage.getItem('ad_channel_code') || '';
    const channel = query.get('adChannelCode') || stored;
    // The link's channel is kept at once, as the app's channel bootstrap keeps it when it starts
    // (lib/channel/resolve.ts; not in the console's preview): a tap on the server's page before
    // the app runs (an agreement link, a reload) must not lose it.
    const linkCode = query.get('previewToken')
      ? ''
      : ['adChannelCode', 'source', 'apiChannelCode'].map((k) => (query.get(k) || '').trim()).find(Boolean);
    if (linkCode) localStorage.setItem('ad_channel_code', linkCode);
    if (!shellPath || ((channel || linkChannel) && !skinFree)) html.classList.add('lm-no-shell');
    else html.dataset.shell = shellPath;
    const theme = JSON.parse(localStorage.getItem('THEME_TOKENS') || 'null');
    if (theme && !linkChannel && theme.channel === channel && html.dataset.ssrChannel === undefined) {
      for (const [name, value] of Object.entries(theme.tokens)) {
        if (name.startsWith('--')) html.style.setProperty(name, String(value));
      }
    }
  } catch {
    if (!html.dataset.shell) html.classList.add('lm-no-shell');
  }
  // Taps on a server-rendered page before the app runs (ADR 022): its form is never submitted by the
  // browser (that would reload the page without its query), and the button tapped last is noted for
  // the app, which acts on it when it takes over (the login form sends the code that was asked for).
  const inShell = (e) => (e.target instanceof Element ? e.target.closest('#lm-shell') : null);
  document.addEventListener('submit', (e) => inShell(e) && e.preventDefault(), true);
  document.addEventListener(
    'click',
    (e) => {
      const button = inShell(e) && e.target.closest('button');
      if (button) html.dataset.shellTap = (button.textContent || '').trim();
    },
    true,
  );
})();
