import type { CreditFormStep } from '@lm/shared/credit-info';
import { create } from 'zustand';

/**
 * The credit-information wizard's local state (spec §4 "Local edits mark the info modified; saving
 * clears the flag and reloads"): the step on screen and whether the form holds edits not saved yet.
 * The record itself is the server's (TanStack Query, features/credit-info/api/); a reload replaces
 * the form's values only while nothing is modified, so a refetch never throws away what the person
 * is typing.
 */
export interface CreditWizardState {
  /** The form step on screen; null until the record has loaded. */
  step: CreditFormStep | null;
  /** Local edits not saved yet. */
  modified: boolean;
  /** The step whose save the next reload answers (its fields are refreshed from the server). */
  lastSaved: CreditFormStep | null;
  /** A field changed on the form. */
  edit(): void;
  /** A save of `step` succeeded: the flag clears (the caller reloads the record). */
  saved(step: CreditFormStep): void;
  goTo(step: CreditFormStep): void;
  /**
   * Which of the freshly loaded record's fields may replace the form's: 'all' on the first load or
   * while nothing is modified, the saved step's after a save (edits made on other steps and not saved
   * yet stay), 'none' while the person has edits not saved. Consumes `lastSaved`.
   */
  adoptServerData(): 'all' | CreditFormStep | 'none';
  reset(): void;
}

const INITIAL = { step: null, modified: false, lastSaved: null } as const;

export const useCreditWizardStore = create<CreditWizardState>((set, get) => ({
  ...INITIAL,
  edit() {
    if (!get().modified) set({ modified: true });
  },
  saved(step) {
    set({ modified: false, lastSaved: step });
  },
  goTo(step) {
    set({ step });
  },
  adoptServerData() {
    const { step, modified, lastSaved } = get();
    if (lastSaved) {
      set({ lastSaved: null });
      return step === null ? 'all' : lastSaved;
    }
    return step === null || !modified ? 'all' : 'none';
  },
  reset() {
    set({ ...INITIAL });
  },
}));
