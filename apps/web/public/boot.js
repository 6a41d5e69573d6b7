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

  // Flex gap (Chrome 84, iOS 14.5): where an engine ignores it, html.lm-no-flex-gap turns on the margins
  // build/flex-gap-fallback.ts wrote for every flex container with a gap (ADR 067).
  try {
    var probe = doc.createElement('div');
    probe.style.cssText =
      'display:flex;flex-direction:column;row-gap:1px;position:absolute;visibility:hidden';
    probe.appendChild(doc.createElement('div'));
    probe.appendChild(doc.createElement('div'));
    html.appendChild(probe);
    if (probe.scrollHeight !== 1) html.className += ' lm-no-flex-gap';
    html.removeChild(probe);
  } catch (_error) {
    // No fallback margins then.
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

  // 3. The app's first scripts (the entry, the legacy polyfills and entry; not the parts it loads later,
  //    which lib/chunk-load.ts retries): one that fails to load before the app has started is tried once
  //    more a second later; if that fails too, or a script the legacy loader asked for fails, a bar offers a
  //    reload — never a first screen that stays inert or a spinner that never ends (spec §8 ChunkLoadError).
  var tried = {};
  var offerReload = function () {
    if (doc.getElementById('lm-reload')) return;
    var bar = doc.createElement('div');
    bar.id = 'lm-reload';
    bar.setAttribute('role', 'alert');
    bar.style.cssText =
      'position:fixed;left:0;right:0;bottom:0;z-index:2000;display:flex;align-items:center;' +
      'justify-content:space-between;padding:12px 16px;background:rgba(0,0,0,.85);color:#fff;font-size:14px';
    var text = doc.createElement('span');
    text.textContent = '页面加载失败，请检查网络后刷新';
    var button = doc.createElement('button');
    button.type = 'button';
    button.textContent = '刷新页面';
    button.style.cssText =
      'margin-left:12px;padding:6px 14px;border:0;border-radius:16px;background:#fff;color:#333;font-size:14px';
    button.onclick = function () {
      location.reload();
    };
    bar.appendChild(text);
    bar.appendChild(button);
    (doc.body || html).appendChild(bar);
  };
  window.addEventListener(
    'error',
    function (e) {
      var el = e.target;
      if (!el || el.localName !== 'script' || !el.src || html.hasAttribute('data-app')) return;
      if (el.src.indexOf(location.protocol + '//' + location.host + '/assets/') !== 0) return;
      var first =
        el.type === 'module' || el.id === 'vite-legacy-polyfill' || /\/polyfills-legacy-/.test(el.src);
      if (!first || tried[el.src]) {
        offerReload();
        return;
      }
      tried[el.src] = true;
      setTimeout(function () {
        var again = doc.createElement('script');
        for (var a = 0; a < el.attributes.length; a++) {
          again.setAttribute(el.attributes[a].name, el.attributes[a].value);
        }
        again.async = false;
        // A legacy polyfills script again: the SystemJS entry runs once it has loaded.
        if (el.id === 'vite-legacy-polyfill' || /\/polyfills-legacy-/.test(el.src)) {
          again.removeAttribute('nomodule');
          again.removeAttribute('id');
          again.onload = function () {
            var entry = doc.getElementById('vite-legacy-entry');
            if (entry && window.System) window.System.import(entry.getAttribute('data-src'));
          };
        }
        el.parentNode.insertBefore(again, el.nextSibling);
      }, 1000);
    },
    true
  );

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
