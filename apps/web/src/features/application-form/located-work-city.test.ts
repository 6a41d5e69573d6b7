import { describe, expect, it } from 'vitest';
import { WORK_CITY_NOTES, workCityFromCreditInfo } from './located-work-city';

describe('workCityFromCreditInfo (issue 44.18)', () => {
  it('the employer’s city first', () => {
    expect(workCityFromCreditInfo({ companyRegion: '440100', residentialRegion: '440300' })).toEqual({
      cityCode: '440100',
      source: 'company',
    });
  });

  it('else the residence', () => {
    expect(workCityFromCreditInfo({ companyRegion: null, residentialRegion: '440300' })).toEqual({
      cityCode: '440300',
      source: 'residence',
    });
    expect(workCityFromCreditInfo({ companyRegion: ' ', residentialRegion: '110100' })).toEqual({
      cityCode: '110100',
      source: 'residence',
    });
  });

  it('nothing when neither is a city code', () => {
    expect(workCityFromCreditInfo({})).toBeNull();
    expect(workCityFromCreditInfo(null)).toBeNull();
    expect(workCityFromCreditInfo({ companyRegion: '广州', residentialRegion: '4401' })).toBeNull();
  });

  it('each source has its own note', () => {
    expect(WORK_CITY_NOTES.company).toContain('单位所在城市');
    expect(WORK_CITY_NOTES.residence).toContain('居住城市');
    expect(WORK_CITY_NOTES.network).toContain('网络所在城市');
  });
});
