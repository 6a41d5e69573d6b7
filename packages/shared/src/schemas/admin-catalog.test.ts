import { describe, expect, it } from 'vitest';
import { APPLICATION_OPTION_LABELS, applicationAnswerText, applicationFieldLabel } from './admin-catalog.ts';
import { APPLICATION_OPTION_CODES } from './application.ts';

describe('application answers in words', () => {
  it('shows option codes as the labels the H5 form showed', () => {
    expect(applicationAnswerText('applyLimit', 2)).toBe('1-5万');
    expect(applicationAnswerText('job', 1)).toBe('上班族');
    expect(applicationAnswerText('sesameCredit', 0)).toBe('无芝麻分');
    expect(applicationAnswerText('creditInvestigation', '3')).toBe('1年内逾期3次以上');
  });

  it('has a label for every code the server accepts', () => {
    for (const [field, codes] of Object.entries(APPLICATION_OPTION_CODES)) {
      const labels = APPLICATION_OPTION_LABELS[field as keyof typeof APPLICATION_OPTION_CODES];
      expect(labels.map((o) => o.value)).toEqual([...codes]);
    }
  });

  it('says yes/no, keeps free text, and marks a missing or unknown answer', () => {
    expect(applicationAnswerText('isHuaWeiPhone', true)).toBe('是');
    expect(applicationAnswerText('isHuaWeiPhone', false)).toBe('否');
    expect(applicationAnswerText('workCity', '杭州市')).toBe('杭州市');
    expect(applicationAnswerText('workCityCode', '440300')).toBe('广东省深圳市（440300）');
    expect(applicationAnswerText('applyLimit', null)).toBe('—');
    expect(applicationAnswerText('applyLimit', 9)).toBe('未知选项（9）');
  });

  it('names the fields', () => {
    expect(applicationFieldLabel('applyLimit')).toBe('借款额度');
    expect(applicationFieldLabel('job')).toBe('职业身份');
    expect(applicationFieldLabel('somethingNew')).toBe('somethingNew');
  });
});
