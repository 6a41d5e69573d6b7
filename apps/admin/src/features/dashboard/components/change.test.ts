import { describe, expect, it } from 'vitest';
import { changeText } from './change';

describe('today vs yesterday', () => {
  it('gives the relative change with a sign', () => {
    expect(changeText(125, 100)).toEqual({ text: '+25.0%', trend: 'up' });
    expect(changeText(90, 100)).toEqual({ text: '-10.0%', trend: 'down' });
    expect(changeText(0, 3)).toEqual({ text: '-100.0%', trend: 'down' });
  });
  it('says flat for equal days and new when yesterday had none', () => {
    expect(changeText(7, 7)).toEqual({ text: '持平', trend: 'flat' });
    expect(changeText(0, 0)).toEqual({ text: '持平', trend: 'flat' });
    expect(changeText(4, 0)).toEqual({ text: '新增', trend: 'up' });
  });
});
