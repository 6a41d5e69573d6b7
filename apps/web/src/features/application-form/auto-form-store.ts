import { create } from 'zustand';
import {
  type AutoFormAnswers,
  type AutoFormFacts,
  isAutoFormUseful,
  pickAutoFormAnswers,
  type Rng,
} from './auto-form';

/** Spec §4 "Auto-form status": initial, loading, success, failed; resetForm → initial. */
export type AutoFormStatus = 'initial' | 'loading' | 'success' | 'failed';

export interface AutoFormDeps {
  /** The channel facts and the person's city; may reject (then not useful). */
  facts(): Promise<AutoFormFacts>;
  rng?: Rng;
}

interface AutoFormState {
  status: AutoFormStatus;
  /** null until decided, then true/false (spec §4). */
  isUseful: boolean | null;
  /** The pre-selected answers shown on the form (status success). */
  answers: AutoFormAnswers | null;
  /** Decides isUseful and, when useful, pre-selects the answers. Runs once per reset. */
  prepare(deps: AutoFormDeps): Promise<void>;
  resetForm(): void;
}

const INITIAL = { status: 'initial', isUseful: null, answers: null } as const;

/** The automatic form's state; the form page reads `answers` to pre-select the options. */
export const useAutoFormStore = create<AutoFormState>((set, get) => ({
  ...INITIAL,
  async prepare(deps) {
    if (get().status !== 'initial') return;
    set({ status: 'loading', isUseful: null, answers: null });
    let useful = false;
    try {
      useful = isAutoFormUseful(await deps.facts());
    } catch {
      useful = false;
    }
    // Reset while waiting (e.g. logout): drop the late answer.
    if (get().status !== 'loading') return;
    if (useful) {
      set({ status: 'success', isUseful: true, answers: pickAutoFormAnswers(deps.rng) });
    } else {
      set({ status: 'failed', isUseful: false, answers: null });
    }
  },
  resetForm() {
    set({ ...INITIAL });
  },
}));
