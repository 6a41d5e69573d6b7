import { describe, expect, it } from 'vitest';
import { prefillFromDraft } from './cover-prefill';

const shenzhen = { provinceCode: '440000', province: '广东省', cityCode: '440300', city: '深圳市' };

describe('coverStatus=1: the application form starts from the earlier draft', () => {
  it('answers and work city are pre-filled; the masked name and ID number are not', () => {
    expect(
      prefillFromDraft(
        {
          adChannelCode: 'demo-crm',
          isHuaWeiPhone: false,
          applyLimit: 2,
          job: 1,
          sesameCredit: 0,
          creditInvestigation: 3,
          workCity: '深圳市',
          workCityCode: '440300',
          realName: '张**',
          identity: '530***********011X',
        },
        shenzhen,
      ),
    ).toEqual({ applyLimit: [2], job: [1], sesameCredit: [0], creditInvestigation: [3], workCity: shenzhen });
  });

  it('no earlier draft, or a city not in the table: nothing pre-filled', () => {
    expect(prefillFromDraft({}, null)).toEqual({});
    expect(prefillFromDraft({ workCity: '某市', workCityCode: '999999' }, null)).toEqual({});
  });
});
