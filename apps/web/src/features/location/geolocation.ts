/**
 * Browser geolocation (spec §7, §9): high accuracy, 15 s timeout, 2 retries after the first attempt.
 * A refused permission is not retried (asking again cannot change the answer).
 */
export const GEOLOCATION_TIMEOUT_MS = 15_000;
export const GEOLOCATION_RETRIES = 2;

export type GeolocationErrorCode =
  | 'GEOLOCATION_UNSUPPORTED'
  | 'PERMISSION_DENIED'
  | 'POSITION_UNAVAILABLE'
  | 'TIMEOUT';

export class GeolocationError extends Error {
  override name = 'GeolocationError';
  constructor(readonly code: GeolocationErrorCode) {
    super(code);
  }
}

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** The part of the browser's Geolocation API used here. */
export interface GeolocationLike {
  getCurrentPosition(
    success: (position: { coords: LatLng }) => void,
    error?: ((error: { code: number }) => void) | null,
    options?: PositionOptions,
  ): void;
}

function errorCode(code: number): GeolocationErrorCode {
  // GeolocationPositionError: 1 PERMISSION_DENIED, 2 POSITION_UNAVAILABLE, 3 TIMEOUT.
  return code === 1 ? 'PERMISSION_DENIED' : code === 3 ? 'TIMEOUT' : 'POSITION_UNAVAILABLE';
}

function once(geo: GeolocationLike, timeoutMs: number): Promise<LatLng> {
  return new Promise((resolve, reject) => {
    // Some webviews never call back at all: our own timer backs up the browser's.
    const timer = setTimeout(() => reject(new GeolocationError('TIMEOUT')), timeoutMs + 1000);
    try {
      geo.getCurrentPosition(
        (position) => {
          clearTimeout(timer);
          resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude });
        },
        (error) => {
          clearTimeout(timer);
          reject(new GeolocationError(errorCode(error?.code ?? 2)));
        },
        { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 0 },
      );
    } catch {
      clearTimeout(timer);
      reject(new GeolocationError('POSITION_UNAVAILABLE'));
    }
  });
}

function browserGeolocation(): GeolocationLike | undefined {
  return typeof navigator !== 'undefined' && 'geolocation' in navigator ? navigator.geolocation : undefined;
}

/** The device position; rejects with a GeolocationError (GEOLOCATION_UNSUPPORTED without the API). */
export async function getCurrentPosition(
  geo: GeolocationLike | undefined = browserGeolocation(),
  { timeoutMs = GEOLOCATION_TIMEOUT_MS, retries = GEOLOCATION_RETRIES } = {},
): Promise<LatLng> {
  if (!geo) throw new GeolocationError('GEOLOCATION_UNSUPPORTED');
  let last: GeolocationError = new GeolocationError('POSITION_UNAVAILABLE');
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      return await once(geo, timeoutMs);
    } catch (error) {
      last = error instanceof GeolocationError ? error : new GeolocationError('POSITION_UNAVAILABLE');
      if (last.code === 'PERMISSION_DENIED') break;
    }
  }
  throw last;
}
