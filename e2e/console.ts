import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { phonePage } from './browser.ts';
import { type RunningServer, runCli, startServer } from './server.ts';

export interface ConsoleStaff {
  phone: string;
  name: string;
  role: 'admin' | 'operator' | 'viewer' | 'channel_partner';
}

/**
 * A server on a fresh embedded database with these console accounts. The embedded database belongs to one
 * process: the accounts are created while the server is down, then it starts again on the same data.
 */
export async function startServerWithStaff(staff: ConsoleStaff[], password: string): Promise<RunningServer> {
  const first = await startServer();
  expect(await first.stop()).toBe(0);
  for (const s of staff) {
    await runCli(
      [
        'apps/server/src/cli/admin-create.ts',
        '--phone',
        s.phone,
        '--name',
        s.name,
        '--role',
        s.role,
        '--password',
        password,
      ],
      { DATA_DIR: first.dataDir },
    );
  }
  return startServer({}, first.dataDir);
}

/** A desktop-sized page signed in to the console as `phone`, once the header shows the account's `name`. */
export async function consolePage(
  browser: Browser,
  server: RunningServer,
  login: { phone: string; name: string; password: string },
) {
  const { page, errors, context } = await phonePage(browser);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/admin/login`);
  await page
    .getByPlaceholder(/手机号/)
    .first()
    .fill(login.phone);
  await page.getByPlaceholder(/密码/).first().fill(login.password);
  await page
    .getByRole('button', { name: /登\s*录/ })
    .first()
    .click();
  await page.getByText(login.name).first().waitFor({ timeout: 15_000 });
  return { page, errors, context };
}
