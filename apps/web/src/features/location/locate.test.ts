import { describe, expect, it, vi } from 'vitest';
import { GeolocationError } from './geolocation';
import { formatLatLng, type LocateDeps, locate } from './locate';

const shenzhen = { province: '广东省', city: '深圳市', cityCode: '440300', excludeCity: true };

describe('locate (geolocation, then excludeCity, IP fallback)', () => {
  it('asks excludeCity with "lat,lng", the channel and coordtype wgs84ll', async () => {
    const excludeCity = vi.fn(async () => shenzhen);
    const result = await locate('demo-location', {
      getPosition: async () => ({ latitude: 22.543096, longitude: 114.057865 }),
      excludeCity,
    });
    expect(excludeCity).toHaveBeenCalledWith({
      adChannelCode: 'demo-location',
      location: '22.543096,114.057865',
      coordtype: 'wgs84ll',
    });
    expect(result).toEqual({ ...shenzhen, source: 'gps' });
  });

  it('without a position (e.g. GEOLOCATION_UNSUPPORTED) asks by IP', async () => {
    const excludeCity = vi.fn(async () => ({ province: '北京市', city: '北京市', excludeCity: 0 }));
    const deps: LocateDeps = {
      getPosition: () => Promise.reject(new GeolocationError('GEOLOCATION_UNSUPPORTED')),
      excludeCity,
    };
    expect(await locate('demo', deps)).toEqual({
      province: '北京市',
      city: '北京市',
      cityCode: null,
      excludeCity: false,
      source: 'ip',
    });
    expect(excludeCity).toHaveBeenCalledWith({ adChannelCode: 'demo' });
  });

  it('retries without coordinates when the call with them fails', async () => {
    const excludeCity = vi.fn().mockRejectedValueOnce(new Error('500')).mockResolvedValue(shenzhen);
    const result = await locate('demo', {
      getPosition: async () => ({ latitude: 1, longitude: 2 }),
      excludeCity,
    });
    expect(excludeCity).toHaveBeenCalledTimes(2);
    expect(excludeCity.mock.calls[1]![0]).toEqual({ adChannelCode: 'demo' });
    expect(result?.source).toBe('ip');
  });

  it('null when neither answers', async () => {
    expect(
      await locate('', {
        getPosition: () => Promise.reject(new GeolocationError('PERMISSION_DENIED')),
        excludeCity: () => Promise.reject(new Error('404')),
      }),
    ).toBeNull();
  });

  it('formats coordinates with 6 decimals', () => {
    expect(formatLatLng({ latitude: 39.9, longitude: 116.4 })).toBe('39.900000,116.400000');
  });
});
