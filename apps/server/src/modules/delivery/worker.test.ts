import { describe, expect, it } from 'vitest';
import { refOf } from './worker.ts';

describe('the partner reference kept from a 2xx answer', () => {
  it('is the id, without control or format characters, 64 characters at most', () => {
    expect(refOf('{"id":"P-1"}')).toBe('P-1');
    expect(refOf('{"data":{"id":42}}')).toBe('42');
    expect(refOf('{"leadId":"L-9"}')).toBe('L-9');
    expect(refOf('{"id":"R-1\\u0000\\u0007\\u202e\\u2028x"}')).toBe('R-1x');
    expect(refOf(JSON.stringify({ id: 'x'.repeat(500) }))).toBe('x'.repeat(64));
    expect(refOf('{"id":"\\u0000"}')).toBeNull();
    expect(refOf('{"id":{"nested":true}}')).toBeNull();
    expect(refOf('<html>not json</html>')).toBeNull();
    expect(refOf(null)).toBeNull();
  });
});
