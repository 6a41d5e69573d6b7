import { maskIdCard, maskName } from '@lm/shared/mask';
import type { ApplicationDraft } from '@lm/shared/schemas/application';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';
import type { ApplicationRepository } from './repository.ts';

export interface ApplicationDeps {
  repo: ApplicationRepository;
  ring: KeyRing;
}

/** Application-form drafts (spec §3): one per person, stored encrypted as a whole. */
export class ApplicationService {
  constructor(private readonly d: ApplicationDeps) {}

  private decode(dataEnc: string): ApplicationDraft {
    return JSON.parse(decryptField(this.d.ring, dataEnc)) as ApplicationDraft;
  }

  /** The stored draft in clear, or an empty object. */
  async draft(userId: number): Promise<ApplicationDraft> {
    const dataEnc = await this.d.repo.findDraft(userId);
    return dataEnc !== undefined ? this.decode(dataEnc) : {};
  }

  /** The draft as shown back to the person: real name and ID number masked. */
  async shownDraft(userId: number): Promise<ApplicationDraft> {
    const draft = await this.draft(userId);
    return {
      ...draft,
      ...(draft.realName ? { realName: maskName(draft.realName) } : {}),
      ...(draft.identity ? { identity: maskIdCard(draft.identity) } : {}),
    };
  }

  /**
   * Merges `patch` into the stored draft (fields given replace, fields absent are kept). The row is
   * locked while merging so that concurrent autosaves of one person never lose a field.
   */
  async tempSave(userId: number, patch: ApplicationDraft): Promise<Date> {
    return this.d.repo.transaction(async (repo) => {
      await repo.ensureDraft(userId, encryptField(this.d.ring, '{}'));
      const dataEnc = await repo.lockDraft(userId);
      const merged = { ...(dataEnc !== undefined ? this.decode(dataEnc) : {}), ...patch };
      return repo.saveDraft(userId, encryptField(this.d.ring, JSON.stringify(merged)));
    });
  }
}
