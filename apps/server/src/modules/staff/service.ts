import { randomInt } from 'node:crypto';
import { maskPhone } from '@lm/shared/mask';
import {
  STAFF_PASSWORD_MIN,
  type StaffListItem,
  type StaffListQuery,
  type StaffRole,
  type UpdateStaffBody,
} from '@lm/shared/schemas/auth';
import { PHONE_PATTERN } from '@lm/shared/validators/phone';
import argon2 from 'argon2';
import { systemActor } from '../../lib/actor.ts';
import { encryptField, type KeyRing, newToken, sha256 } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { loginOutcome, type Metrics } from '../../lib/metrics.ts';
import type { KnownDeviceRepository } from '../auth/known-device-repository.ts';
import {
  describeWait,
  KNOWN_DEVICE_PASSWORD_WINDOW_MS,
  MAX_WRONG_PASSWORDS_PER_KNOWN_DEVICE,
} from '../auth/rules.ts';
import type { ClientMeta, SmsCodes } from '../auth/sms-codes.ts';
import type { Limiter } from '../limits/limiter.ts';
import type { StaffRepository, StaffRow } from './repository.ts';

/**
 * Wrong passwords (issue 15): at most 5 per (account, address) in 15 minutes — the short lock, which
 * a stranger elsewhere cannot put on the owner — and at most 100 per account in an hour whatever the
 * addresses (OWASP ASVS 2.2.1). Either lock stops password logins only: the SMS-code login, which
 * needs the account's phone, is never locked by wrong passwords.
 */
export const MAX_WRONG_PASSWORDS = 5;
export const PASSWORD_LOCK_MS = 15 * 60_000;
export const MAX_WRONG_PASSWORDS_PER_ACCOUNT = 100;
export const ACCOUNT_PASSWORD_LOCK_MS = 3600_000;
/** Login tries (password or code, any phone) per address per PASSWORD_LOCK_MS. */
export const MAX_STAFF_LOGINS_PER_IP = 30;

/**
 * The limiter keys of wrong passwords for an account (or an unknown phone: the same keys, so the
 * answers do not tell the two apart). They carry a digest of the current password hash, so a new
 * password (a reset in the console, `npm run admin:create`) starts new counters and lifts every lock.
 */
export function passwordFailKeys(
  phoneHash: string,
  passwordHash: string | null | undefined,
  ip: string,
): { account: string; pair: string } {
  const epoch = passwordHash ? sha256(passwordHash).slice(0, 12) : 'none';
  const account = `staff:pwfail:${phoneHash}:${epoch}`;
  return { account, pair: `${account}:ip:${ip}` };
}

export type { StaffRow } from './repository.ts';

export interface StaffDeps {
  repo: StaffRepository;
  ring: KeyRing;
  limiter: Limiter;
  codes: SmsCodes;
  /** Devices that logged in (ADR 055). */
  devices: KnownDeviceRepository;
  sessionTtlHours: number;
  phoneIndex(phone: string): string;
  /** Counts console logins by outcome. */
  metrics?: Metrics | undefined;
}

export function publicStaff(s: StaffRow) {
  return { id: s.id, name: s.name, mobile: s.mobileMasked, role: s.role, channelCodes: s.channelCodes };
}

/** A row of the console's account list (no hashes, phone masked). */
export function staffListItem(s: StaffRow): StaffListItem {
  return {
    ...publicStaff(s),
    status: s.status,
    hasPassword: s.passwordHash !== null,
    createdAt: s.createdAt.toISOString(),
    lastLoginAt: s.lastLoginAt?.toISOString() ?? null,
  };
}

/** What the audit log keeps of an account (never the password hash or the encrypted phone). */
export function auditView(s: StaffRow): Record<string, unknown> {
  return {
    name: s.name,
    mobile: s.mobileMasked,
    role: s.role,
    status: s.status,
    channelCodes: s.channelCodes,
    // (A key naming "password" would be masked by the audit log.)
    loginMethods: s.passwordHash !== null ? 'password+sms' : 'sms',
  };
}

/** Password alphabet without look-alikes (0/O, 1/l/I). */
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
/** A random password for a reset, shown once to the admin. */
export function generatePassword(length = 14): string {
  let out = '';
  for (let i = 0; i < Math.max(length, STAFF_PASSWORD_MIN); i++)
    out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

// Verified against when the phone is unknown, so both cases take the same time.
const DUMMY_HASH = argon2.hash('not-a-real-password-placeholder');

export class StaffService {
  constructor(private readonly d: StaffDeps) {}

  /**
   * Creates an account, or updates the one with this phone (name, role, channels, password; enabled
   * again). Used by `npm run admin:create` and tests; the console's POST refuses existing phones.
   */
  async create(
    input: {
      phone: string;
      name: string;
      role: StaffRole;
      password?: string | undefined;
      channelCodes?: string[] | undefined;
    },
    repo: StaffRepository = this.d.repo,
  ) {
    if (input.password !== undefined && input.password.length < STAFF_PASSWORD_MIN) {
      throw appError('VALIDATION_FAILED', `密码至少${STAFF_PASSWORD_MIN}个字符（password）`);
    }
    const channelCodes = input.role === 'channel_partner' ? (input.channelCodes ?? []) : [];
    const passwordHash = input.password ? await argon2.hash(input.password) : null;
    return repo.upsertByPhoneHash(
      {
        name: input.name,
        mobileEnc: encryptField(this.d.ring, input.phone),
        mobileHash: this.d.phoneIndex(input.phone),
        mobileMasked: maskPhone(input.phone),
        role: input.role,
        channelCodes,
        passwordHash,
      },
      {
        name: input.name,
        role: input.role,
        status: 'active',
        channelCodes,
        ...(passwordHash ? { passwordHash } : {}),
      },
    );
  }

  /** 400 unless every code is an existing channel. */
  async requireChannels(codes: readonly string[], repo: StaffRepository = this.d.repo): Promise<void> {
    if (codes.length === 0) return;
    const found = await repo.existingChannelCodes(codes);
    const missing = codes.filter((c) => !found.includes(c));
    if (missing.length) throw appError('VALIDATION_FAILED', `渠道不存在：${missing.join('、')}`);
  }

  /** The console's account list: filters, sorting, paging. */
  async list(q: StaffListQuery): Promise<{ total: number; list: StaffListItem[] }> {
    const { total, rows } = await this.d.repo.listForConsole(
      q,
      q.keyword && PHONE_PATTERN.test(q.keyword) ? this.d.phoneIndex(q.keyword) : null,
    );
    return { total, list: rows.map(staffListItem) };
  }

  async get(id: number, repo: StaffRepository = this.d.repo): Promise<StaffRow> {
    const row = await repo.findById(id);
    if (!row) throw appError('NOT_FOUND', '账号不存在');
    return row;
  }

  /** 400 when `id` is the last active admin and the change would leave none. */
  private async keepAnAdmin(id: number, repo: StaffRepository): Promise<void> {
    if ((await repo.countOtherActiveAdmins(id)) === 0)
      throw appError('VALIDATION_FAILED', '至少需要保留一个启用的管理员账号');
  }

  /** Name, role and channels. A channel partner keeps at least one channel; others get none. */
  async update(id: number, input: UpdateStaffBody, repo: StaffRepository = this.d.repo) {
    const before = await this.get(id, repo);
    const role = input.role ?? before.role;
    let channelCodes = input.channelCodes ?? before.channelCodes;
    if (role !== 'channel_partner') channelCodes = [];
    else if (channelCodes.length === 0) throw appError('VALIDATION_FAILED', '渠道合作方账号至少需要一个渠道');
    await this.requireChannels(input.channelCodes ?? [], repo);
    if (before.role === 'admin' && role !== 'admin' && before.status === 'active')
      await this.keepAnAdmin(id, repo);
    const after = await repo.update(id, { name: input.name ?? before.name, role, channelCodes });
    return { before, after };
  }

  async setStatus(id: number, status: 'active' | 'disabled', repo: StaffRepository = this.d.repo) {
    const before = await this.get(id, repo);
    if (status === 'disabled' && before.role === 'admin' && before.status === 'active')
      await this.keepAnAdmin(id, repo);
    const after = await repo.update(id, { status });
    if (status === 'disabled') await repo.revokeSessionsOf(id, new Date());
    return { before, after };
  }

  /**
   * Sets the given password or a generated one (returned once); the account's sessions end. The new
   * hash also lifts any lock from wrong passwords (`passwordFailKeys`).
   */
  async resetPassword(id: number, password: string | undefined, repo: StaffRepository = this.d.repo) {
    const before = await this.get(id, repo);
    const plain = password ?? generatePassword();
    const after = await repo.update(id, { passwordHash: await argon2.hash(plain) });
    await repo.revokeSessionsOf(id, new Date());
    return { before, after, generated: password === undefined ? plain : null };
  }

  async findByPhone(phone: string): Promise<StaffRow | undefined> {
    return this.d.repo.findByPhoneHash(this.d.phoneIndex(phone));
  }

  /** Sends a console login code. Unknown phones get the same answer but no SMS. */
  async sendCode(phone: string, meta: ClientMeta, altcha?: string | undefined) {
    const member = await this.findByPhone(phone);
    if (member?.status === 'disabled') throw appError('ACCOUNT_FORBIDDEN');
    if (member) {
      const sent = await this.d.codes.send('staff_login', phone, meta, undefined, altcha);
      return { mobile: maskPhone(phone), ...sent };
    }
    return { mobile: maskPhone(phone), retryAfter: 60, expiresIn: 300 };
  }

  /**
   * Console login with a password or an SMS code. Wrong passwords are counted reserve-then-settle:
   * one unit of both limits of `passwordFailKeys` is taken atomically (`consumeAll`) before argon2
   * runs, kept when the password is wrong and given back when it is right. Passwords in flight
   * therefore count, and however many arrive at once no more than 5 per (account, address) and 100
   * per account an hour are ever evaluated. A right password clears its own address's short lock but
   * only gives back its unit of the hourly count: the owner logging in does not hand a guesser
   * elsewhere a fresh hundred. The lock's start is written to the audit log (`login-lock`).
   */
  async login(
    input: { phone: string; password?: string | undefined; code?: string | undefined },
    meta: ClientMeta,
  ) {
    try {
      const result = await this.loginOnce(input, meta);
      this.d.metrics?.logins.inc({ kind: 'staff', outcome: 'success' });
      return result;
    } catch (err) {
      this.d.metrics?.logins.inc({ kind: 'staff', outcome: loginOutcome(err) });
      throw err;
    }
  }

  private async loginOnce(
    input: { phone: string; password?: string | undefined; code?: string | undefined },
    meta: ClientMeta,
  ) {
    const ipDecision = await this.d.limiter.consume(`staff:login:ip:${meta.ip}`, MAX_STAFF_LOGINS_PER_IP, {
      ms: PASSWORD_LOCK_MS,
    });
    if (!ipDecision.allowed) {
      const s = Math.ceil(ipDecision.retryAfterMs / 1000);
      throw appError('RATE_LIMITED', `登录尝试过于频繁，请${describeWait(s)}后再试`, { retryAfter: s });
    }

    const member = await this.findByPhone(input.phone);
    const phoneHash = this.d.phoneIndex(input.phone);
    const keys = passwordFailKeys(phoneHash, member?.passwordHash, meta.ip);
    // A known device of this account (ADR 055): its wrong passwords count on its own small cap, not on the
    // account's lock, which strangers fill from anywhere.
    const device = member
      ? await this.d.devices.find(meta.knownDevice, { subjectKind: 'staff', phoneHash, subjectId: member.id })
      : undefined;
    if (input.password !== undefined) {
      const reserved = await this.d.limiter.consumeAll(
        device
          ? [
              {
                key: `${keys.account}:kd:${device.id}`,
                limit: MAX_WRONG_PASSWORDS_PER_KNOWN_DEVICE,
                window: { ms: KNOWN_DEVICE_PASSWORD_WINDOW_MS },
                reason: '密码错误次数过多，本设备的密码登录已锁定',
              },
            ]
          : [
              {
                key: keys.pair,
                limit: MAX_WRONG_PASSWORDS,
                window: { ms: PASSWORD_LOCK_MS },
                reason: '密码错误次数过多，该账号在当前网络的密码登录已锁定',
              },
              {
                key: keys.account,
                limit: MAX_WRONG_PASSWORDS_PER_ACCOUNT,
                window: { ms: ACCOUNT_PASSWORD_LOCK_MS },
                reason: '该账号密码错误次数过多，密码登录已锁定',
              },
            ],
      );
      if (!reserved.allowed) {
        const s = Math.ceil(reserved.retryAfterMs / 1000);
        throw appError('RATE_LIMITED', `${reserved.reason}，请${describeWait(s)}后再试或使用验证码登录`, {
          retryAfter: s,
        });
      }
      const hash = member?.passwordHash ?? (await DUMMY_HASH);
      const good = await argon2.verify(hash, input.password).catch(() => false);
      if (!member?.passwordHash || !good) {
        // The unit stays taken. The failure that fills a limit starts a lock: audit-logged.
        if (member && !device) await this.auditLock(member, reserved.counts, meta);
        throw appError('WRONG_CREDENTIALS');
      }
      if (device) await this.d.limiter.store.decrement(`${keys.account}:kd:${device.id}`);
      else await this.d.limiter.store.decrement(keys.account);
    } else {
      try {
        await this.d.codes.verify('staff_login', input.phone, input.code ?? '', meta.knownDevice);
      } catch (err) {
        if (!member) throw appError('WRONG_CREDENTIALS');
        throw err;
      }
      if (!member) throw appError('WRONG_CREDENTIALS');
    }
    // The owner proved it from this address: its earlier typos here are forgiven.
    await this.d.limiter.store.clear(keys.pair);
    if (member.status === 'disabled') throw appError('ACCOUNT_FORBIDDEN');

    const token = newToken();
    const now = new Date();
    await this.d.repo.insertSession({
      staffId: member.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + this.d.sessionTtlHours * 3600_000),
      ip: meta.ip,
    });
    await this.d.repo.update(member.id, { lastLoginAt: now });
    const knownDevice = await this.d.devices.remember(meta.knownDevice, {
      subjectKind: 'staff',
      subjectId: member.id,
      phoneHash,
    });
    return { token, staff: publicStaff(member), knownDevice };
  }

  /**
   * An audit entry when a wrong password fills a limit, i.e. starts a lock: `counts` are the pair's
   * and the account's counts after this attempt (exactly one attempt sees each limit reached).
   */
  private async auditLock(member: StaffRow, [pair, account]: number[], meta: ClientMeta): Promise<void> {
    const locks = [
      pair === MAX_WRONG_PASSWORDS && {
        scope: 'address',
        failures: MAX_WRONG_PASSWORDS,
        lockMinutes: PASSWORD_LOCK_MS / 60_000,
      },
      account === MAX_WRONG_PASSWORDS_PER_ACCOUNT && {
        scope: 'account',
        failures: MAX_WRONG_PASSWORDS_PER_ACCOUNT,
        lockMinutes: ACCOUNT_PASSWORD_LOCK_MS / 60_000,
      },
    ];
    for (const after of locks) {
      if (!after) continue;
      await this.d.repo.recordAudit(systemActor(meta.ip), {
        action: 'login-lock',
        entity: 'staff',
        entityId: member.id,
        after,
        reason: after.scope === 'address' ? '同一网络密码错误次数过多' : '密码错误次数过多（所有网络）',
      });
    }
  }

  async authenticate(token: string | undefined): Promise<{ sessionId: number; staff: StaffRow }> {
    if (!token || token.length > 200) throw appError('UNAUTHORIZED');
    const row = await this.d.repo.findSessionByTokenHash(sha256(token));
    if (!row) throw appError('UNAUTHORIZED');
    if (row.session.revokedAt || row.session.expiresAt.getTime() <= Date.now())
      throw appError('TOKEN_EXPIRED');
    if (row.staff.status === 'disabled') throw appError('ACCOUNT_FORBIDDEN');
    return { sessionId: row.session.id, staff: row.staff };
  }

  async logout(sessionId: number) {
    await this.d.repo.revokeSession(sessionId, new Date());
  }
}
