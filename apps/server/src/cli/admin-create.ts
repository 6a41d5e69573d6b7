/**
 * Creates (or updates) a console staff account:
 *   npm run admin:create -- --phone 13800000000 --name 张三 [--role admin|operator|viewer] [--password …]
 * Without --password the account logs in with SMS codes only. Uses the same configuration as the
 * server (DATABASE_URL or the embedded database in DATA_DIR).
 */
import { parseArgs } from 'node:util';
import { staffRoleSchema } from '@lm/shared/schemas/auth';
import { phoneSchema } from '@lm/shared/schemas/common';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config/env.ts';

async function main() {
  const { values } = parseArgs({
    options: {
      phone: { type: 'string' },
      name: { type: 'string', default: '管理员' },
      role: { type: 'string', default: 'admin' },
      password: { type: 'string' },
    },
  });
  const phone = phoneSchema.safeParse(values.phone ?? '');
  const role = staffRoleSchema.safeParse(values.role);
  const problems: string[] = [];
  if (!phone.success) problems.push(`--phone: ${phone.error.issues[0]?.message}`);
  if (!role.success) problems.push('--role: admin, operator or viewer');
  if (values.password !== undefined && values.password.length < 10)
    problems.push('--password: at least 10 characters');
  if (!phone.success || !role.success || problems.length) {
    console.error(`Cannot create the staff account:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    console.error(
      'Usage: npm run admin:create -- --phone 13800000000 --name 张三 --role admin --password "a long secret"',
    );
    process.exit(2);
  }
  const app = await buildApp({ config: { ...loadConfig(), LOG_LEVEL: 'warn' }, serveStatic: false });
  try {
    const member = await app.services.staff.create({
      phone: phone.data,
      name: values.name!,
      role: role.data,
      password: values.password,
    });
    console.log(
      `Staff account ready: #${member.id} ${member.name} ${member.mobileMasked} role=${member.role}${values.password ? ' (password set)' : ' (SMS login only)'}`,
    );
  } finally {
    await app.close();
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
