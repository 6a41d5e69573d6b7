import { beforeEach, describe, expect, it } from 'vitest';
import { useCreditWizardStore } from './store';
import { toFormValues, valuesToAdopt } from './wizard';

const state = () => useCreditWizardStore.getState();

describe('credit wizard store (local edits mark the info modified; saving clears the flag and reloads)', () => {
  beforeEach(() => state().reset());

  it('starts with no step and nothing modified: the first load fills the whole form', () => {
    expect(state()).toMatchObject({ step: null, modified: false, lastSaved: null });
    expect(state().adoptServerData()).toBe('all');
  });

  it('the first load fills the whole form even if the person already typed', () => {
    state().edit();
    expect(state().adoptServerData()).toBe('all');
  });

  it('an edit marks the info modified: a reload then leaves the form alone', () => {
    state().goTo('INFORMATION');
    state().edit();
    expect(state().modified).toBe(true);
    expect(state().adoptServerData()).toBe('none');
  });

  it("a save clears the flag; the reload refreshes only the saved step's fields, once", () => {
    state().goTo('CONTACT');
    state().edit();
    state().saved('CONTACT');
    expect(state()).toMatchObject({ modified: false, lastSaved: 'CONTACT' });
    expect(state().adoptServerData()).toBe('CONTACT');
    expect(state().lastSaved).toBeNull();
    // A later reload with nothing modified fills the whole form again.
    expect(state().adoptServerData()).toBe('all');
  });

  it('moving between steps keeps unsaved edits marked', () => {
    state().goTo('INFORMATION');
    state().edit();
    state().goTo('CONTACT');
    expect(state()).toMatchObject({ step: 'CONTACT', modified: true });
  });

  it('reset forgets step, flag and pending save (leaving the page)', () => {
    state().goTo('BASE');
    state().edit();
    state().saved('BASE');
    state().reset();
    expect(state()).toMatchObject({ step: null, modified: false, lastSaved: null });
  });

  it('repeated edits notify subscribers once', () => {
    let calls = 0;
    const off = useCreditWizardStore.subscribe(() => calls++);
    state().edit();
    state().edit();
    state().edit();
    off();
    expect(calls).toBe(1);
  });
});

describe('valuesToAdopt', () => {
  const values = toFormValues({
    education: 1,
    companyName: '星河',
    contacts: [{ relationship: '0', name: '张三', phone: '13800000001' }],
  });
  it('all, one step, or nothing', () => {
    expect(valuesToAdopt(values, 'all')).toBe(values);
    expect(valuesToAdopt(values, 'none')).toBeNull();
    expect(valuesToAdopt(values, 'CONTACT')).toEqual({ contacts: values.contacts });
    expect(Object.keys(valuesToAdopt(values, 'INFORMATION')!)).toEqual([
      'education',
      'maritalStatus',
      'annualIncome',
      'occupation',
      'loanPurpose',
    ]);
    expect(valuesToAdopt(values, 'BASE')).toMatchObject({ companyName: '星河', residentialRegion: null });
  });
});
