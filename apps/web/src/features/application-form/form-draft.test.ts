import { describe, expect, it } from 'vitest';
import {
  impliedStep,
  isAnswered,
  mergeDrafts,
  readLocalDraft,
  splitValues,
  toTempSavePatch,
} from './form-draft';

const shenzhen = { provinceCode: '440000', province: '广东省', cityCode: '440300', city: '深圳市' };
const ID = '110101199003074514';

describe('form drafts (issue 16.3)', () => {
  it('keeps the name and ID number apart from the answers (they never go to localStorage)', () => {
    expect(splitValues({ applyLimit: [2], workCity: shenzhen, realName: '张三', identity: ID })).toEqual({
      answers: { applyLimit: [2], workCity: shenzhen },
      who: { realName: '张三', identity: ID },
    });
  });

  it('reads back only what the form can show', () => {
    expect(
      readLocalDraft(
        {
          applyLimit: [2],
          job: ['x'],
          sesameCredit: [],
          workCity: { city: '深圳市', cityCode: 'abc' },
          extra: 1,
        },
        { realName: '张三', identity: 42 },
      ),
    ).toEqual({ applyLimit: [2], sesameCredit: [], realName: '张三' });
    expect(readLocalDraft(null, 'nonsense')).toEqual({});
    expect(readLocalDraft({ workCity: shenzhen }, null)).toEqual({ workCity: shenzhen });
  });

  it('autosaves the answers given so far, with the channel', () => {
    expect(toTempSavePatch({ applyLimit: [2], job: [], workCity: shenzhen }, 'demo', false)).toEqual({
      adChannelCode: 'demo',
      applyLimit: 2,
      workCity: '深圳市',
      workCityCode: '440300',
    });
  });

  it('sends the name and ID number only once valid, and never for a verified identity', () => {
    expect(toTempSavePatch({ realName: '张', identity: '1101011990' }, 'demo', false)).toBeNull();
    expect(toTempSavePatch({ realName: ' 张三 ', identity: `${ID.slice(0, 17)}x` }, '', false)).toEqual({
      realName: '张三',
    });
    expect(toTempSavePatch({ realName: '张三', identity: ID }, '', false)).toEqual({
      realName: '张三',
      identity: ID,
    });
    expect(toTempSavePatch({ realName: '张三', identity: ID, job: [1] }, '', true)).toEqual({ job: 1 });
  });

  it("the device's copy wins field by field (a cleared answer too); the server's fills the rest", () => {
    expect(
      mergeDrafts({ applyLimit: [1], job: [2], workCity: shenzhen }, { applyLimit: [3], job: [] }),
    ).toEqual({
      applyLimit: [3],
      job: [],
      workCity: shenzhen,
    });
  });

  it('a wizard resumes at the first step not fully answered', () => {
    const steps = [['applyLimit', 'workCity'], ['job'], ['realName', 'identity']];
    expect(impliedStep({}, steps)).toBe(0);
    expect(impliedStep({ applyLimit: [1] }, steps)).toBe(0);
    expect(impliedStep({ applyLimit: [1], workCity: shenzhen }, steps)).toBe(1);
    expect(impliedStep({ applyLimit: [1], workCity: shenzhen, job: [2] }, steps)).toBe(2);
    expect(
      impliedStep({ applyLimit: [1], workCity: shenzhen, job: [2], realName: '张三', identity: ID }, steps),
    ).toBe(2);
    expect(impliedStep({ applyLimit: [], workCity: shenzhen, job: [2] }, steps)).toBe(0);
  });

  it('an empty choice or blank text is not an answer', () => {
    expect([
      isAnswered([]),
      isAnswered(' '),
      isAnswered(undefined),
      isAnswered([0]),
      isAnswered('张'),
    ]).toEqual([false, false, false, true, true]);
  });
});
