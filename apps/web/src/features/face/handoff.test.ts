import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore } from '@/lib/storage';
import {
  clearFaceFailure,
  clearPendingFace,
  confirmedIdentity,
  FACE_SESSION_KEYS,
  forgetIdentity,
  PENDING_MAX_AGE_MS,
  readFaceFailure,
  readPendingFace,
  rememberIdentity,
  saveFaceFailure,
  savePendingFace,
} from './handoff';

const URL_ =
  'http://127.0.0.1:8080/api/storage/private/face/20250101/u1-abcdef012345/AbCdEf1700000000000selfie.jpg';

describe('pending selfie', () => {
  it('round-trips through the store', () => {
    const store = memoryStore();
    savePendingFace(store, URL_, 1_000);
    expect(readPendingFace(store, 2_000)).toEqual({ image: URL_, at: 1_000 });
    clearPendingFace(store);
    expect(readPendingFace(store, 2_000)).toBeNull();
  });

  it('is forgotten when too old, from the future, or unreadable', () => {
    const store = memoryStore();
    savePendingFace(store, URL_, 0);
    expect(readPendingFace(store, PENDING_MAX_AGE_MS)).not.toBeNull();
    expect(readPendingFace(store, PENDING_MAX_AGE_MS + 1)).toBeNull();
    savePendingFace(store, URL_, 10 * 60_000);
    expect(readPendingFace(store, 0)).toBeNull();
    for (const raw of ['{', '"x"', '{"image":""}', '{"image":1,"at":1}', '{"image":"u"}']) {
      expect(readPendingFace(memoryStore({ [FACE_SESSION_KEYS.pending]: raw }), 1)).toBeNull();
    }
  });

  it('stores only the URL and the time (no name, no ID number)', () => {
    const store = memoryStore();
    savePendingFace(store, URL_, 5);
    expect(JSON.parse(store.dump()[FACE_SESSION_KEYS.pending]!)).toEqual({ image: URL_, at: 5 });
  });
});

describe('failure reasons', () => {
  it('round-trip, drop non-strings, clear', () => {
    const store = memoryStore();
    saveFaceFailure(store, { reasons: ['未检测到人脸，请正对镜头重新拍摄'] });
    expect(readFaceFailure(store)).toEqual({ reasons: ['未检测到人脸，请正对镜头重新拍摄'] });
    store.set(FACE_SESSION_KEYS.failure, JSON.stringify({ reasons: ['a', 1, '', null] }));
    expect(readFaceFailure(store)).toEqual({ reasons: ['a'] });
    store.set(FACE_SESSION_KEYS.failure, '{"reasons":"a"}');
    expect(readFaceFailure(store)).toBeNull();
    clearFaceFailure(store);
    expect(readFaceFailure(store)).toBeNull();
  });
});

describe('confirmed identity (memory only)', () => {
  afterEach(forgetIdentity);

  const value = () => ({ realName: '张三', identity: '110101199003074514', note: 'n', verified: null });

  it('is kept in memory for its login and forgotten', () => {
    expect(confirmedIdentity('token-a')).toBeNull();
    const v = value();
    rememberIdentity(v, 'token-a');
    expect(confirmedIdentity('token-a')).toEqual(value());
    // A copy: later changes of the caller's object do not leak in.
    v.realName = '李四';
    expect(confirmedIdentity('token-a')?.realName).toBe('张三');
    forgetIdentity();
    expect(confirmedIdentity('token-a')).toBeNull();
  });

  it('another login in the same tab (or none) never sees it', () => {
    rememberIdentity(value(), 'token-a');
    expect(confirmedIdentity('token-b')).toBeNull();
    expect(confirmedIdentity(null)).toBeNull();
    rememberIdentity(value(), null);
    expect(confirmedIdentity('token-a')).toBeNull();
  });
});
