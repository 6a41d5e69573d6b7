/**
 * Creates (or updates) a console staff account:
 *   npm run admin:create -- --phone 13800000000 --name 张三 [--role admin|operator|viewer] [--password …]
 *   npm run admin:create -- --phone 13800000001 --name 渠道方 --role channel_partner --channels demo,ch2
 * Without --password the account logs in with SMS codes only. Uses the same configuration as the
 * server (DATABASE_URL or the embedded database in DATA_DIR). Prints what it did and how to log in.
 */
import { parseArgs } from 'node:util';
import { STAFF_PASSWORD_MIN, staffRoleSchema } from '@lm/shared/schemas/auth';
import { phoneSchema } from '@lm/shared/schemas/common';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config/env.ts';
import { AppError } from '../lib/errors.ts';

async function main() {
  const { values } = parseArgs({
    options: {
      phone: { type: 'string' },
      name: { type: 'string', default: '管理员' },
      role: { type: 'string', default: 'admin' },
      password: { type: 'string' },
      channels: { type: 'string' },
    },
  });
  const channelCodes = (values.channels ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const phone = phoneSchema.safeParse(values.phone ?? '');
  const role = staffRoleSchema.safeParse(values.role);
  const problems: string[] = [];
  if (!phone.success) problems.push(`--phone: ${phone.error.issues[0]?.message}`);
  if (!role.success) problems.push('--role: admin, operator, viewer or channel_partner');
  if (values.password !== undefined && values.password.length < STAFF_PASSWORD_MIN)
    problems.push(`--password: at least ${STAFF_PASSWORD_MIN} characters`);
  if (role.success && role.data === 'channel_partner' && channelCodes.length === 0)
    problems.push('--channels: a channel partner needs at least one channel code (comma-separated)');
  if (role.success && role.data !== 'channel_partner' && channelCodes.length > 0)
    problems.push('--channels: only for --role channel_partner');
  if (!phone.success || !role.success || problems.length) {
    console.error(`Cannot create the staff account:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    console.error(
      'Usage: npm run admin:create -- --phone 13800000000 --name 张三 --role admin --password "a long secret"',
    );
    process.exit(2);
  }
  const app = await buildApp({ config: { ...loadConfig(), LOG_LEVEL: 'warn' }, serveStatic: false });
  try {
    const existed = Boolean(await app.services.staff.findByPhone(phone.data));
    await app.services.staff.requireChannels(channelCodes);
    const member = await app.services.staff.create({
      phone: phone.data,
      name: values.name!,
      role: role.data,
      password: values.password,
      channelCodes,
    });
    const how = values.password ? 'password or SMS code' : 'SMS code only (no password set)';
    console.log(
      `${existed ? 'Updated' : 'Created'} staff account #${member.id} ${member.name} ${member.mobileMasked} ` +
        `role=${member.role}${member.channelCodes.length ? ` channels=${member.channelCodes.join(',')}` : ''}` +
        `${existed ? ' (enabled again)' : ''}`,
    );
    console.log(`Log in at /admin/login with the phone number and ${how}.`);
  } catch (err) {
    if (err instanceof AppError) {
      console.error(`Cannot create the staff account: ${err.message}`);
      process.exitCode = 2;
      return;
    }
    throw err;
  } finally {
    await app.close();
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
