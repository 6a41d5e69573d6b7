import type { CreateStaffBody, StaffListItem, UpdateStaffBody } from '@lm/shared/schemas/auth';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import type { StaffRepository } from './repository.ts';
import { auditView, type StaffService, staffListItem } from './service.ts';

/**
 * 账号管理 (admins only): every change of a staff account and its audit entry commit together. The acting
 * admin may neither change their own role nor disable themselves (the last-admin rule is StaffService's).
 */
export class StaffAccounts {
  constructor(private readonly d: { repo: StaffRepository; staff: StaffService }) {}

  async create(actor: Actor, input: CreateStaffBody): Promise<StaffListItem> {
    const { staff } = this.d;
    if (await staff.findByPhone(input.phone))
      throw appError('VALIDATION_FAILED', '该手机号已有后台账号，请在列表中修改');
    const row = await this.d.repo.transaction(async (tx) => {
      await staff.requireChannels(input.channelCodes ?? [], tx);
      const created = await staff.create(input, tx);
      await tx.recordAudit(actor, {
        action: 'create',
        entity: 'staff',
        entityId: created.id,
        after: auditView(created),
      });
      return created;
    });
    return staffListItem(row);
  }

  async update(actor: Actor, id: number, input: UpdateStaffBody): Promise<StaffListItem> {
    if (id === actor.staff?.id && input.role && input.role !== 'admin')
      throw appError('FORBIDDEN', '不能修改自己的角色');
    const row = await this.d.repo.transaction(async (tx) => {
      const { before, after } = await this.d.staff.update(id, input, tx);
      await tx.recordAudit(actor, {
        action: 'update',
        entity: 'staff',
        entityId: after.id,
        before: auditView(before),
        after: auditView(after),
      });
      return after;
    });
    return staffListItem(row);
  }

  async setStatus(actor: Actor, id: number, status: 'active' | 'disabled'): Promise<StaffListItem> {
    if (id === actor.staff?.id) throw appError('FORBIDDEN', '不能修改自己的账号状态');
    const row = await this.d.repo.transaction(async (tx) => {
      const { before, after } = await this.d.staff.setStatus(id, status, tx);
      await tx.recordAudit(actor, {
        action: 'status',
        entity: 'staff',
        entityId: after.id,
        before: { status: before.status },
        after: { status: after.status },
      });
      return after;
    });
    return staffListItem(row);
  }

  /** Sets (or generates) a password; answers the generated one, null when it was given. */
  async resetPassword(actor: Actor, id: number, password: string | undefined): Promise<string | null> {
    const result = await this.d.repo.transaction(async (tx) => {
      const result = await this.d.staff.resetPassword(id, password, tx);
      await tx.recordAudit(actor, {
        action: 'reset-password',
        entity: 'staff',
        entityId: result.after.id,
        before: { loginMethods: auditView(result.before).loginMethods },
        after: { loginMethods: 'password+sms', generated: result.generated !== null },
      });
      return result;
    });
    return result.generated;
  }
}
