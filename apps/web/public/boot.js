// Runs before the first paint (a tiny blocking script, inline in every page; ADR 065). ES5: it runs in every
// engine of the support matrix, the legacy build's down to Chrome 49 and iOS 10 (docs/h5.md, ADR 067).
// 1. A page whose first screen the server rendered (<html data-ssr> names it; data-ssr-path the address it
//    was rendered for) shows it: the application form's frame and the authorise page of a re-match link
//    look the same in every skin but for the channel colour, set here from the app's last visit
//    (features/skins/theme.ts keeps it per channel); a landing or login page is in the skin of the
//    channel it was rendered for (data-ssr-channel, '' for the default page), shown when that is the
//    visit's channel (the link's, else the one kept from an earlier visit), else left to the app.
// 2. The app's module scripts wait in <template id="lm-app"> on such a page: they are requested once the
//    screen has painted (the legacy build's `nomodule` scripts are in the page itself). Kept for a figure (bench/web.mjs, 2026-12-05, ADR 065): with Vite's script tags left in the
//    page, 133.6 KB gz of JS was requested before the LCP on every ad URL (goal ≤ 130) and Lighthouse's
//    simulated LCP of two landings was 1.9 and 2.2 s (goal ≤ 1.2 s); started after the paint: 0 KB, ≤ 714 ms.
(function () {
  var doc = document;
  var html = doc.documentElement;
  var shown = false;
  /** A query parameter of the page's address ('' when absent); no URLSearchParams before iOS 10.3. */
  var param = function (name) {
    var m = new RegExp('[?&]' + name + '=([^&#]*)').exec(location.search);
    if (!m) return '';
    try {
      return decodeURIComponent(m[1].replace(/\+/g, ' '));
    } catch (_error) {
      return m[1];
    }
  };
  var firstOf = function (names) {
    for (var i = 0; i < names.length; i++) {
      var value = param(names[i]).trim();
      if (value) return value;
    }
    return '';
  };
  try {
    var path = location.pathname.replace(/\/+$/, '') || '/';
    var rendered = html.dataset.ssr;
    var linkChannel = firstOf(['adChannelCode', 'source', 'apiChannelCode', 'adRouteCode']) !== '';
    var stored = localStorage.getItem('ad_channel_code') || '';
    var channel = param('adChannelCode').trim() || stored;
    // The link's channel is kept at once, as the app's channel bootstrap keeps it when it starts
    // (lib/channel/resolve.ts; not in the console's preview): a tap on the server's page before
    // the app runs (an agreement link, a reload) must not lose it.
    var linkCode = param('previewToken') ? '' : firstOf(['adChannelCode', 'source', 'apiChannelCode']);
    if (linkCode) localStorage.setItem('ad_channel_code', linkCode);
    var renderedChannel = html.dataset.ssrChannel;
    shown =
      rendered !== undefined &&
      (html.dataset.ssrPath || rendered) === path &&
      (renderedChannel === undefined || linkChannel || renderedChannel === stored);
    if (shown) html.dataset.shell = rendered;
    else {
      delete html.dataset.shell;
      html.className += ' lm-no-shell';
    }
    // The colours kept for the link's adChannelCode or the stored channel (not when the link names another
    // code the app has still to resolve), on a page not rendered in a channel's skin.
    var otherCode = param('source') || param('apiChannelCode') || param('adRouteCode');
    var theme = JSON.parse(localStorage.getItem('THEME_TOKENS') || 'null');
    if (theme && !otherCode && theme.channel === channel && renderedChannel === undefined) {
      for (var name in theme.tokens) {
        if (name.indexOf('--') === 0) html.style.setProperty(name, String(theme.tokens[name]));
      }
    }
  } catch (_error) {
    shown = false;
    delete html.dataset.shell;
    html.className += ' lm-no-shell';
  }

  var app = doc.getElementById('lm-app');
  if (app) {
    var started = false;
    var start = function () {
      if (started) return;
      started = true;
      // Fresh elements (a script cloned from a template does not run), in the page's order: the entry,
      // its modulepreloads, then the plugin's inline module scripts, which run in that order (async off).
      var from = app.content.children;
      for (var i = 0; i < from.length; i++) {
        var el = doc.createElement(from[i].localName);
        for (var a = 0; a < from[i].attributes.length; a++) {
          el.setAttribute(from[i].attributes[a].name, from[i].attributes[a].value);
        }
        if (el.localName === 'script') {
          el.text = from[i].text;
          el.async = false;
        }
        doc.head.appendChild(el);
      }
    };
    if (!shown || doc.visibilityState !== 'visible') start();
    else {
      // Once the screen has painted (first-contentful-paint), or at the latest a second after the page
      // was parsed and a frame drawn (no paint timing: at once then).
      var painted = false;
      try {
        if (PerformanceObserver.supportedEntryTypes.indexOf('paint') >= 0) {
          new PerformanceObserver(function (list, observer) {
            if (
              list.getEntries().some(function (e) {
                return e.name === 'first-contentful-paint';
              })
            ) {
              observer.disconnect();
              start();
            }
          }).observe({ type: 'paint', buffered: true });
          painted = true;
        }
      } catch (_error) {
        // No paint timing (below).
      }
      doc.addEventListener('DOMContentLoaded', function () {
        requestAnimationFrame(function () {
          setTimeout(start, painted ? 1000 : 0);
        });
      });
      doc.addEventListener('visibilitychange', start);
    }
  }

  // Taps on a server-rendered page before the app runs (ADR 022): its form is never submitted by the
  // browser (that would reload the page without its query), and the button tapped last is noted for
  // the app, which acts on it when it takes over (the login form sends the code that was asked for).
  var inShell = function (e) {
    return e.target instanceof Element ? e.target.closest('#lm-shell') : null;
  };
  doc.addEventListener(
    'submit',
    function (e) {
      if (inShell(e)) e.preventDefault();
    },
    true
  );
  doc.addEventListener(
    'click',
    function (e) {
      var button = inShell(e) && e.target.closest('button');
      if (button) html.dataset.shellTap = (button.textContent || '').trim();
    },
    true
  );
})();
