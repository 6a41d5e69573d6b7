import { describe, expect, it } from 'vitest';
import { answerText, errorText, valueText } from './conversion-reports-format';

describe('valueText', () => {
  it('shows fen as yuan with two decimals, none as a dash', () => {
    expect(valueText(1_234_567)).toBe('12,345.67 元');
    expect(valueText(200_000_000)).toBe('2,000,000.00 元');
    expect(valueText(5)).toBe('0.05 元');
    expect(valueText(0)).toBe('0.00 元');
    expect(valueText(null)).toBe('—');
  });
});

describe('answerText', () => {
  it('reads each platform’s answer as its message and code', () => {
    expect(answerText('{"code":0,"message":"成功"}')).toBe('代码 0：成功');
    expect(answerText('{"header":{"status":0,"desc":"success"}}')).toBe('代码 0：success');
    expect(answerText('{"result":1}')).toBe('result 1');
    expect(answerText('{"code":400,"msg":"缺少 token","data":null}')).toBe('代码 400：缺少 token');
    expect(answerText('{"code":0,"message":""}')).toBe('代码 0');
    expect(answerText('{"message":"invalid"}')).toBe('invalid');
  });
  it('shows text that is not JSON (or was cut) as it is, and nothing as a dash', () => {
    expect(answerText('<html>502 Bad Gateway</html>')).toBe('<html>502 Bad Gateway</html>');
    expect(answerText('{"code":400,"msg":"缺少 tok')).toBe('{"code":400,"msg":"缺少 tok');
    expect(answerText('[1,2]')).toBe('[1,2]');
    expect(answerText('{}')).toBe('{}');
    expect(answerText(null)).toBe('—');
    expect(answerText('  ')).toBe('—');
  });
});

describe('errorText', () => {
  it('reads a refusal’s answer after its HTTP status', () => {
    expect(errorText('HTTP 400：{"code":400,"msg":"缺少 token","data":null}')).toBe(
      'HTTP 400，代码 400：缺少 token',
    );
  });
  it('keeps other reasons as they are', () => {
    expect(errorText('HTTP 503')).toBe('HTTP 503');
    expect(errorText('HTTP 404：<html>not found</html>')).toBe('HTTP 404：<html>not found</html>');
    expect(errorText('腾讯广告拒绝：40001 invalid account')).toBe('腾讯广告拒绝：40001 invalid account');
    expect(errorText('超出平台回传时限，未回传')).toBe('超出平台回传时限，未回传');
  });
});
