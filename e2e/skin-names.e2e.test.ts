/**
 * Issue 16.10: every demo skin channel shows a product name a visitor would believe — on its landing
 * (brand line and page title) and on its re-login page — never a placeholder like "借款皮肤8".
 */
import { describe, expect, it } from 'vitest';
import { SKINS } from '../packages/shared/src/channel.ts';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall } from './person.ts';

const e2e = useServerAndBrowser();

describe('skin channels carry product names', () => {
  it('each skin’s landing and /login show its name as brand and page title, no 皮肤N', async () => {
    const { page, errors, context } = await phonePage(e2e.browser);
    const names = new Set<string>();
    for (const n of SKINS) {
      const code = `demo-skin${n}`;
      const config = await apiCall<{ title: string | null }>(
        e2e.server.url,
        `/api/adChannel/h5Config?adChannelCode=${code}`,
      );
      const name = config.title ?? '';
      expect(name, code).toMatch(/^[\u4e00-\u9fa5a-z]{2,8}$/);
      expect(name, code).not.toMatch(/皮肤/);
      names.add(name);

      for (const path of ['/', '/login']) {
        await page.goto(`${e2e.server.url}${path}?adChannelCode=${code}`);
        await page.waitForFunction(() => !document.documentElement.dataset.shell);
        await page.getByText(name, { exact: false }).first().waitFor();
        await expect.poll(() => page.title(), { message: `${path} ${code}` }).toBe(name);
        const text = await page.locator('body').innerText();
        expect(text, `${path} ${code}`).not.toMatch(/皮肤|skin\d/i);
      }
      if (n === 8 || n === 12) await shot(page, `skin-name-${code}`);
    }
    // Sixteen skins, sixteen names.
    expect(names.size).toBe(SKINS.length);
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
