// Runs before the first paint (a tiny blocking script; CSP allows only same-origin scripts).
// The pre-rendered shell shows the default skin of one page: hide it when the visit is for another
// page or comes with a channel (whose own skin the app renders).
(() => {
  const html = document.documentElement;
  try {
    const path = location.pathname.replace(/\/+$/, '') || '/';
    const shellPath = {
      '/': '/',
      '/download': '/',
      '/login': '/login',
      '/getQuota': '/login',
      '/h5': '/login',
    }[path];
    const query = new URLSearchParams(location.search);
    const channel =
      ['adChannelCode', 'source', 'apiChannelCode', 'adRouteCode'].some((k) => query.get(k)) ||
      localStorage.getItem('ad_channel_code');
    if (!shellPath || channel) html.classList.add('lm-no-shell');
    else html.dataset.shell = shellPath;
  } catch {
    html.classList.add('lm-no-shell');
  }
})();
