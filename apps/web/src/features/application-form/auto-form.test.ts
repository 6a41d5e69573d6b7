import { describe, expect, it, vi } from 'vitest';
import { APPLY_LIMIT_OPTIONS } from '@/config/form-options';
import {
  AUTO_FORM_OPTIONS,
  type AutoFormFacts,
  isAutoFormUseful,
  pickAutoFormAnswers,
  pickOption,
  toSelectorValues,
} from './auto-form';
import { useAutoFormStore } from './auto-form-store';

/** A deterministic RNG (mulberry32). */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('automatic form: random pre-selection (spec §5)', () => {
  it('never picks applyLimit 4, even at the top of the RNG range', () => {
    expect(APPLY_LIMIT_OPTIONS.map((o) => o.value)).toContain(4);
    for (const r of [0, 0.25, 0.5, 0.74, 0.75, 0.99, 0.999999]) {
      expect(pickAutoFormAnswers(() => r).applyLimit).not.toBe(4);
    }
    const rng = seeded(7);
    for (let i = 0; i < 500; i++) expect(pickAutoFormAnswers(rng).applyLimit).not.toBe(4);
  });

  it('answers every option question with one of its codes', () => {
    const answers = pickAutoFormAnswers(seeded(1));
    expect(Object.keys(answers).sort()).toEqual(Object.keys(AUTO_FORM_OPTIONS).sort());
    for (const [field, value] of Object.entries(answers)) {
      const codes = AUTO_FORM_OPTIONS[field as keyof typeof AUTO_FORM_OPTIONS].map((o) => o.value);
      expect(codes).toContain(value);
    }
    // Never name, ID or city: the person types those.
    expect(answers).not.toHaveProperty('realName');
    expect(answers).not.toHaveProperty('identity');
    expect(answers).not.toHaveProperty('workCity');
  });

  it('reaches every allowed code of a question over many draws', () => {
    const rng = seeded(3);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(pickAutoFormAnswers(rng).applyLimit);
    expect([...seen].sort()).toEqual([1, 2, 3]);
  });

  it('pickOption maps [0, 1) onto the options and clamps bad RNG values', () => {
    const options = [
      { value: 1, label: 'a' },
      { value: 2, label: 'b' },
    ];
    expect(pickOption(options, () => 0)).toBe(1);
    expect(pickOption(options, () => 0.5)).toBe(2);
    expect(pickOption(options, () => 1)).toBe(2);
    expect(pickOption(options, () => -1)).toBe(1);
    expect(pickOption(options, () => Number.NaN)).toBe(1);
    expect(() => pickOption([], () => 0)).toThrow();
  });

  it('toSelectorValues gives the Selector arrays', () => {
    expect(toSelectorValues({ applyLimit: 2, job: 1 })).toEqual({ applyLimit: [2], job: [1] });
  });
});

describe('automatic form: isUseful (spec §4, §5)', () => {
  const facts: AutoFormFacts = {
    flags: ['skin17', 'haier'],
    linkType: 4,
    excludeCityCodes: ['110100'],
    cityCode: '440100',
  };

  it('true on an automatic-form channel', () => expect(isAutoFormUseful(facts)).toBe(true));
  it('false on other channels', () => expect(isAutoFormUseful({ ...facts, flags: ['skin17'] })).toBe(false));
  it('false with linkType 1', () => expect(isAutoFormUseful({ ...facts, linkType: 1 })).toBe(false));
  it('false when the city is in excludeCityCodes', () =>
    expect(isAutoFormUseful({ ...facts, cityCode: '110100' })).toBe(false));
  it('false when the location answer says the city is excluded', () =>
    expect(isAutoFormUseful({ ...facts, cityExcluded: true })).toBe(false));
  it('an unknown city does not exclude', () =>
    expect(isAutoFormUseful({ ...facts, cityCode: null })).toBe(true));
});

describe('automatic form store (spec §4 status)', () => {
  it('initial → loading → success with answers; resetForm → initial', async () => {
    const store = useAutoFormStore;
    store.getState().resetForm();
    expect(store.getState()).toMatchObject({ status: 'initial', isUseful: null, answers: null });
    let release!: (f: AutoFormFacts) => void;
    const facts = new Promise<AutoFormFacts>((r) => {
      release = r;
    });
    const done = store.getState().prepare({ facts: () => facts, rng: () => 0.99 });
    expect(store.getState().status).toBe('loading');
    release({ flags: ['haier'], linkType: 4, excludeCityCodes: [], cityCode: null });
    await done;
    expect(store.getState()).toMatchObject({ status: 'success', isUseful: true });
    expect(store.getState().answers?.applyLimit).toBe(3);
    store.getState().resetForm();
    expect(store.getState()).toMatchObject({ status: 'initial', isUseful: null, answers: null });
  });

  it('not useful (or the facts failed) → failed, isUseful false, nothing pre-selected', async () => {
    const store = useAutoFormStore;
    store.getState().resetForm();
    await store.getState().prepare({
      facts: async () => ({ flags: ['haier'], linkType: 1, excludeCityCodes: [], cityCode: null }),
    });
    expect(store.getState()).toMatchObject({ status: 'failed', isUseful: false, answers: null });
    store.getState().resetForm();
    await store.getState().prepare({ facts: () => Promise.reject(new Error('offline')) });
    expect(store.getState()).toMatchObject({ status: 'failed', isUseful: false });
  });

  it('prepares once until reset; a reset while loading drops the late answer', async () => {
    const store = useAutoFormStore;
    store.getState().resetForm();
    const facts = vi.fn(async () => ({
      flags: ['haier'],
      linkType: 4,
      excludeCityCodes: [],
      cityCode: null,
    }));
    const first = store.getState().prepare({ facts });
    await store.getState().prepare({ facts });
    expect(facts).toHaveBeenCalledTimes(1);
    store.getState().resetForm();
    await first;
    expect(store.getState().status).toBe('initial');
  });
});
