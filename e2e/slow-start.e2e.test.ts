/**
 * A reload of a page that has no pre-rendered shell (here 我的, /my) on a slow phone: until the app's
 * scripts have arrived and rendered, the page shows a loading indicator in the channel's colour instead
 * of a white screen, and the app's page replaces it.
 */
import { describe, expect, it } from 'vitest';
import { holdAppEntry, phonePage, shot, unexpectedErrors } from './browser.ts';
import { seedSession } from './form.ts';
import { useServerAndBrowser } from './harness.ts';
import { loginPerson } from './person.ts';

const e2e = useServerAndBrowser();

/** The channel whose skin colour (purple) the indicator must take, not the default red. */
const CHANNEL = 'demo-skin8';

describe('a page without a shell, loading slowly', () => {
  it('shows the loading indicator in the channel colour, then the page', async () => {
    const person = await loginPerson(e2e.server.url);
    const { page, context, errors } = await phonePage(e2e.browser);
    try {
      await seedSession(context, person, CHANNEL);
      // A first visit on the channel's page: the app keeps the skin's colours for the next start.
      await page.goto(`${e2e.server.url}/?adChannelCode=${CHANNEL}`);
      await expect
        .poll(() => page.evaluate(() => localStorage.getItem('THEME_TOKENS') ?? ''), { timeout: 15_000 })
        .toContain(CHANNEL);

      // The reload, with the app's entry script held back as on a slow network.
      const release = await holdAppEntry(page);
      await page.goto(`${e2e.server.url}/my`, { waitUntil: 'commit' });
      const indicator = page.getByRole('status', { name: '加载中' });
      await expect.poll(() => indicator.isVisible(), { timeout: 10_000 }).toBe(true);
      // Shown after its delay, in the middle of the screen, in the channel's colour.
      await expect
        .poll(() => indicator.evaluate((el) => getComputedStyle(el).opacity), { timeout: 5_000 })
        .toBe('1');
      const box = await indicator.boundingBox();
      expect(box).not.toBeNull();
      expect(Math.abs(box!.x + box!.width / 2 - 375 / 2)).toBeLessThan(2);
      const colours = await indicator.evaluate((el) => {
        const probe = document.createElement('div');
        probe.style.color = 'var(--adm-color-primary)';
        document.body.appendChild(probe);
        const primary = getComputedStyle(probe).color;
        probe.remove();
        return { ring: getComputedStyle(el).borderTopColor, primary };
      });
      expect(colours.ring).toBe(colours.primary);
      expect(colours.ring).not.toBe('rgb(255, 44, 62)');
      await shot(page, 'slow-start-indicator');

      release();
      await page.getByText('申请记录').waitFor({ timeout: 15_000 });
      expect(await page.locator('.lm-boot').count()).toBe(0);
      expect(unexpectedErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
