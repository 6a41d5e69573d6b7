import { describe, expect, it } from 'vitest';
import { memoryStore } from './storage';
import { captureTrackReport, getTrackReport, saveTrackReport, TRACK_VALUE_MAX } from './track-report';

const config = { platform: 'oceanengine', params: ['clickid', 'callback'] };

describe('track report (spec §7 track_report)', () => {
  it('captures the configured parameters present in the landing URL', () => {
    const q = new URLSearchParams(
      'adChannelCode=demo&clickid=C1&callback=https%3A%2F%2Fcb.example%2F%3Fx%3D1&other=1',
    );
    expect(captureTrackReport(config, q)).toEqual({
      platform: 'oceanengine',
      clickid: 'C1',
      callback: 'https://cb.example/?x=1',
    });
  });

  it('nothing configured or nothing present → null', () => {
    expect(captureTrackReport(null, new URLSearchParams('clickid=1'))).toBeNull();
    expect(captureTrackReport(config, new URLSearchParams('adChannelCode=demo'))).toBeNull();
  });

  it('cannot overwrite the platform and caps long values', () => {
    const q = new URLSearchParams({ platform: 'evil', clickid: 'x'.repeat(5000) });
    const r = captureTrackReport({ platform: 'p', params: ['platform', 'clickid'] }, q)!;
    expect(r.platform).toBe('p');
    expect(r.clickid).toHaveLength(TRACK_VALUE_MAX);
  });

  it('is kept per channel', () => {
    const store = memoryStore();
    saveTrackReport('a', { platform: 'baidu', bd_vid: '1' }, store);
    saveTrackReport('b', { platform: 'oceanengine', clickid: '2' }, store);
    expect(getTrackReport('a', store)).toEqual({ platform: 'baidu', bd_vid: '1' });
    expect(getTrackReport('b', store)?.clickid).toBe('2');
    expect(getTrackReport('c', store)).toBeNull();
    expect(getTrackReport('', store)).toBeNull();
  });
});
