import { describe, expect, it, vi } from 'vitest';
import {
  GEOLOCATION_RETRIES,
  GeolocationError,
  type GeolocationLike,
  getCurrentPosition,
} from './geolocation';

/** A fake geolocation answering with `outcomes` in turn (a number is an error code). */
function fakeGeo(outcomes: Array<number | { latitude: number; longitude: number }>) {
  const calls: PositionOptions[] = [];
  const geo: GeolocationLike = {
    getCurrentPosition(success, error, options) {
      calls.push(options ?? {});
      const next = outcomes.shift();
      if (typeof next === 'number' || next === undefined) error?.({ code: next ?? 2 });
      else success({ coords: next });
    },
  };
  return { geo, calls };
}

describe('getCurrentPosition (spec §7: high accuracy, 15 s, 2 retries)', () => {
  it('asks with high accuracy and a 15 s timeout', async () => {
    const { geo, calls } = fakeGeo([{ latitude: 39.9, longitude: 116.4 }]);
    expect(await getCurrentPosition(geo)).toEqual({ latitude: 39.9, longitude: 116.4 });
    expect(calls[0]).toMatchObject({ enableHighAccuracy: true, timeout: 15_000 });
  });

  it('retries twice after a timeout or an unavailable position', async () => {
    const { geo, calls } = fakeGeo([3, 2, { latitude: 1, longitude: 2 }]);
    expect(await getCurrentPosition(geo)).toEqual({ latitude: 1, longitude: 2 });
    expect(calls).toHaveLength(3);
  });

  it('gives up after 1 + 2 attempts with the last error', async () => {
    const { geo, calls } = fakeGeo([3, 3, 3, 3]);
    await expect(getCurrentPosition(geo)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(calls).toHaveLength(1 + GEOLOCATION_RETRIES);
  });

  it('does not retry a refused permission', async () => {
    const { geo, calls } = fakeGeo([1, { latitude: 1, longitude: 2 }]);
    await expect(getCurrentPosition(geo)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(calls).toHaveLength(1);
  });

  it('an unsupported browser → GEOLOCATION_UNSUPPORTED', async () => {
    const error = await getCurrentPosition(undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeolocationError);
    expect(error).toMatchObject({ code: 'GEOLOCATION_UNSUPPORTED' });
  });

  it('times out by itself when the browser never calls back', async () => {
    vi.useFakeTimers();
    try {
      const silent: GeolocationLike = { getCurrentPosition: () => undefined };
      const result = getCurrentPosition(silent, { timeoutMs: 100, retries: 0 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(1200);
      expect(await result).toMatchObject({ code: 'TIMEOUT' });
    } finally {
      vi.useRealTimers();
    }
  });
});
