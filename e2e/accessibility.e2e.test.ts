/**
 * Issue 17 (accessibility): the page can be zoomed; on each landing layout in each skin colour and on
 * /login, text — the primary button, the links, the SMS-code button, the grey notes — reaches the WCAG
 * contrast ratio against what is behind it (4.5:1, 3:1 for large text); every input, checkbox and button
 * has an accessible name. The form and the authorise page get the same checks logged in.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall, DEMO_FORM, loginPerson, signIn } from './person.ts';

const e2e = useServerAndBrowser();

/** demo: hero-card red; skins 8–12: amount-dial purple, hero-card shallow blue, steps-list halo,
 * amount-dial teal, banner-benefits red (apps/server/src/modules/channels/seed.ts). */
const CHANNELS = ['demo', 'demo-skin8', 'demo-skin9', 'demo-skin10', 'demo-skin11', 'demo-skin12'];

interface TextContrast {
  text: string;
  tag: string;
  color: string;
  background: string;
  ratio: number;
  min: number;
}

/**
 * Every visible element with its own text: its colour (with the opacity of it and its ancestors)
 * against what is behind it — the ancestors' background colours composited down to the first opaque
 * one, or each colour stop of a gradient behind it (the worst counts). Disabled controls are exempt
 * (WCAG 1.4.3), as is text inside SVG illustrations.
 */
function textContrasts(page: Page): Promise<TextContrast[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba => {
      const n = c.match(/[\d.]+/g)!.map(Number);
      return [n[0]!, n[1]!, n[2]!, n[3] ?? 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i]! * a + bottom[i]! * (1 - a)).concat(1) as Rgba;
    };
    const lum = (c: Rgba) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    const hex = (c: Rgba) =>
      `#${c
        .slice(0, 3)
        .map((v) => Math.round(v).toString(16).padStart(2, '0'))
        .join('')}`;

    /** The colours behind `el`: one composited colour, or one per stop of a gradient. */
    const backgroundsOf = (el: Element): Rgba[] => {
      const layers: Rgba[] = [];
      let stops: Rgba[] | null = null;
      for (let node: Element | null = el; node; node = node.parentElement) {
        const cs = getComputedStyle(node);
        if (cs.backgroundImage.includes('gradient')) {
          stops = (cs.backgroundImage.match(/rgba?\([^)]*\)/g) ?? []).map(parse).filter((c) => c[3] === 1);
          if (stops.length) break;
        }
        const bg = parse(cs.backgroundColor);
        if (bg[3] > 0) {
          layers.push(bg);
          if (bg[3] === 1) break;
        }
      }
      const bases = stops?.length ? stops : [[255, 255, 255, 1] as Rgba];
      return bases.map((base) => layers.reduceRight((acc, layer) => over(layer, acc), base));
    };

    const out: TextContrast[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (el.closest('svg, [aria-hidden="true"]')) continue;
      const own = Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (!own) continue;
      const rect = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (rect.width <= 1 || rect.height <= 1 || cs.visibility !== 'visible') continue;
      if ((el as HTMLButtonElement).disabled || el.closest('[aria-disabled="true"], :disabled')) continue;
      let opacity = 1;
      for (let node: Element | null = el; node; node = node.parentElement) {
        opacity *= Number(getComputedStyle(node).opacity);
      }
      if (opacity === 0) continue;
      const fgRaw = parse(cs.color);
      const size = Number.parseFloat(cs.fontSize);
      const bold = Number(cs.fontWeight) >= 700;
      const min = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      for (const bg of backgroundsOf(el)) {
        const fg = over([fgRaw[0], fgRaw[1], fgRaw[2], fgRaw[3] * opacity], bg);
        out.push({
          text: own.slice(0, 20),
          tag: el.tagName.toLowerCase(),
          color: hex(fg),
          background: hex(bg),
          ratio: Math.round(ratio(fg, bg) * 100) / 100,
          min,
        });
      }
    }
    return out;
  });
}

interface ControlContrast {
  what: string;
  color: string;
  background: string;
  ratio: number;
  min: number;
}

/**
 * Issue 44.12: what identifies a control must be readable too. The placeholder of every visible empty input
 * against the field's background (4.5:1, it is text), and the outline of every unticked checkbox or radio
 * against what is behind it (3:1, WCAG 1.4.11 non-text contrast). Disabled controls are exempt.
 */
function controlContrasts(page: Page): Promise<ControlContrast[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba => {
      const n = c.match(/[\d.]+/g)!.map(Number);
      return [n[0]!, n[1]!, n[2]!, n[3] ?? 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i]! * a + bottom[i]! * (1 - a)).concat(1) as Rgba;
    };
    const lum = (c: Rgba) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    const hex = (c: Rgba) =>
      `#${c
        .slice(0, 3)
        .map((v) => Math.round(v).toString(16).padStart(2, '0'))
        .join('')}`;
    /** The colour behind `el` (its own background included when `self`), composited down to white. */
    const behind = (el: Element, self: boolean): Rgba => {
      const layers: Rgba[] = [];
      for (let node: Element | null = self ? el : el.parentElement; node; node = node.parentElement) {
        const bg = parse(getComputedStyle(node).backgroundColor);
        if (bg[3] > 0) {
          layers.push(bg);
          if (bg[3] === 1) break;
        }
      }
      return layers.reduceRight((acc, layer) => over(layer, acc), [255, 255, 255, 1] as Rgba);
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility === 'visible';
    };
    const out: ControlContrast[] = [];
    const push = (what: string, fg: Rgba, bg: Rgba, min: number) =>
      out.push({
        what,
        color: hex(fg),
        background: hex(bg),
        ratio: Math.round(ratio(fg, bg) * 100) / 100,
        min,
      });

    for (const input of Array.from(
      document.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]'),
    )) {
      if (!visible(input) || input.disabled || input.value || !input.placeholder) continue;
      const bg = behind(input, true);
      push(
        `placeholder ${input.placeholder}`,
        over(parse(getComputedStyle(input, '::placeholder').color), bg),
        bg,
        4.5,
      );
    }
    // antd-mobile draws a checkbox's or radio's box as its icon; a native one would be the input itself.
    for (const icon of Array.from(document.querySelectorAll('.adm-checkbox-icon, .adm-radio-icon'))) {
      const control = icon.closest('.adm-checkbox, .adm-radio');
      if (
        !visible(icon) ||
        !control ||
        control.matches(
          '.adm-checkbox-checked, .adm-radio-checked, .adm-checkbox-disabled, .adm-radio-disabled',
        )
      )
        continue;
      const cs = getComputedStyle(icon);
      const bg = behind(icon, false);
      push(
        `${control.textContent?.trim().slice(0, 12) ?? ''} outline`,
        over(parse(cs.borderTopColor), bg),
        bg,
        3,
      );
    }
    return out;
  });
}

/** Form controls and buttons without an accessible name, from the accessibility tree (aria snapshot). */
async function unnamedControls(page: Page): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot();
  return snapshot
    .split('\n')
    .filter((line) =>
      /^\s*- (textbox|searchbox|button|checkbox|radio|switch|combobox|spinbutton|slider|link)(\s*\[[^\]]*\])*:?\s*$/.test(
        line,
      ),
    )
    .map((line) => line.trim());
}

async function viewportAllowsZoom(page: Page): Promise<string> {
  const content = await page.locator('meta[name="viewport"]').getAttribute('content');
  return content ?? '';
}

const blocksZoom = (content: string) => {
  const parts = Object.fromEntries(
    content.split(',').map((p) => p.split('=').map((s) => s.trim().toLowerCase()) as [string, string]),
  );
  return (
    parts['user-scalable'] === 'no' ||
    parts['user-scalable'] === '0' ||
    (parts['maximum-scale'] !== undefined && Number(parts['maximum-scale']) < 2)
  );
};

describe('accessibility (issue 17)', () => {
  it('landing layouts and /login in every skin colour: zoom allowed, readable text, named controls', async () => {
    const { page, errors, context } = await phonePage(e2e.browser);
    for (const code of CHANNELS) {
      for (const path of ['/', '/login']) {
        if (path === '/login' && !['demo', 'demo-skin9', 'demo-skin11'].includes(code)) continue;
        const where = `${path}?adChannelCode=${code}`;
        await page.goto(`${e2e.server.url}${where}`);
        await page.waitForFunction(() => !document.documentElement.dataset.shell);
        const submit = page.locator('form button[type="submit"]');
        await submit.waitFor();
        // The channel's colours are on the page (not the stylesheet defaults only).
        await expect
          .poll(() => page.evaluate(() => document.documentElement.style.getPropertyValue('--app-primary')))
          .not.toBe('');

        const viewport = await viewportAllowsZoom(page);
        expect(viewport, where).toContain('width=device-width');
        expect(blocksZoom(viewport), `${where}: ${viewport}`).toBe(false);

        const texts = await textContrasts(page);
        // The primary button, the code button, both agreement links are among the texts checked.
        const buttonText = (await submit.innerText()).trim();
        expect(
          texts.some((t) => buttonText.startsWith(t.text)),
          `${where}: button text`,
        ).toBe(true);
        expect(texts.filter((t) => t.tag === 'a').length, `${where}: links`).toBeGreaterThanOrEqual(2);
        expect(
          texts.some((t) => t.text === '获取验证码'),
          `${where}: code button`,
        ).toBe(true);
        const failing = texts.filter((t) => t.ratio < t.min);
        expect(failing, where).toEqual([]);

        const controls = await controlContrasts(page);
        // Both fields' placeholders and the agreement's checkbox are among the controls checked.
        expect(
          controls.filter((c) => c.what.startsWith('placeholder')).length,
          `${where}: placeholders`,
        ).toBe(2);
        expect(controls.filter((c) => c.what.endsWith('outline')).length, `${where}: checkbox`).toBe(1);
        expect(
          controls.filter((c) => c.ratio < c.min),
          `${where}: controls`,
        ).toEqual([]);

        expect(await unnamedControls(page), where).toEqual([]);
        if (path === '/' && (code === 'demo' || code === 'demo-skin11'))
          await shot(page, `a11y-landing-${code}`);
        if (path === '/login' && code === 'demo-skin9') await shot(page, `a11y-login-${code}`);
      }
    }
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('the form and the authorise page: readable text, named controls', async () => {
    const person = await loginPerson(e2e.server.url);
    const { page, errors, context } = await phonePage(e2e.browser);
    await signIn(context, person);
    await page.goto(`${e2e.server.url}/fill-information?adChannelCode=demo`);
    await page.getByText('职业身份').first().waitFor();
    expect(blocksZoom(await viewportAllowsZoom(page))).toBe(false);
    expect((await textContrasts(page)).filter((t) => t.ratio < t.min)).toEqual([]);
    expect((await controlContrasts(page)).filter((c) => c.ratio < c.min)).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    await shot(page, 'a11y-form');

    const match = await apiCall(e2e.server.url, '/api/user/info/save', {
      token: person.token,
      body: DEMO_FORM,
    });
    const options = encodeURIComponent(JSON.stringify({ adChannelCode: 'demo', rqResult: match }));
    await page.goto(`${e2e.server.url}/fill-information/common-authorize?options=${options}`);
    await page.locator('button').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/fill-information/common-authorize');
    expect((await textContrasts(page)).filter((t) => t.ratio < t.min)).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    await shot(page, 'a11y-authorize');
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
