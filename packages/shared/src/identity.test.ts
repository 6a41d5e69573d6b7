import { describe, expect, it } from 'vitest';
import { identityConflict, withVerifiedIdentity } from './identity.ts';

const verified = { realName: '王小明', identity: '11010519491231002X' };

describe('identityConflict', () => {
  it('finds nothing without a verified identity', () => {
    expect(identityConflict(null, { realName: '张三', identity: '110101199003074514' })).toEqual([]);
    expect(identityConflict(undefined, { realName: '张三' })).toEqual([]);
  });

  it('refuses another name and another number', () => {
    expect(identityConflict(verified, { realName: '张三', identity: '110101199003074514' })).toEqual([
      'realName',
      'identity',
    ]);
    expect(identityConflict(verified, { realName: '张三', identity: verified.identity })).toEqual([
      'realName',
    ]);
    expect(identityConflict(verified, { realName: '王小明', identity: '110101199003074514' })).toEqual([
      'identity',
    ]);
  });

  it('accepts the verified identity, the final X in either case and surrounding spaces', () => {
    expect(identityConflict(verified, verified)).toEqual([]);
    expect(identityConflict(verified, { realName: ' 王小明 ', identity: '11010519491231002x' })).toEqual([]);
    expect(identityConflict({ ...verified, identity: '11010519491231002x' }, verified)).toEqual([]);
  });

  it('does not treat other characters loosely', () => {
    expect(identityConflict(verified, { realName: '王小 明' })).toEqual(['realName']);
    expect(identityConflict(verified, { realName: '王小明明' })).toEqual(['realName']);
    expect(identityConflict(verified, { identity: '11010519491231002' })).toEqual(['identity']);
  });

  it('treats absent or blank fields as no conflict (the verified ones are used)', () => {
    expect(identityConflict(verified, {})).toEqual([]);
    expect(identityConflict(verified, { realName: '', identity: '  ' })).toEqual([]);
    expect(identityConflict(verified, { realName: null, identity: null })).toEqual([]);
    expect(identityConflict(verified, { realName: '王小明' })).toEqual([]);
  });
});

describe('withVerifiedIdentity', () => {
  it('fills in and normalises the verified identity', () => {
    expect(withVerifiedIdentity(verified, { job: 1 })).toEqual({ job: 1, ...verified });
    expect(withVerifiedIdentity(verified, { realName: ' 王小明', identity: '11010519491231002x' })).toEqual(
      verified,
    );
  });

  it('leaves the form alone without a verified identity', () => {
    const form = { realName: '张三', identity: '110101199003074514' };
    expect(withVerifiedIdentity(null, form)).toBe(form);
  });
});
