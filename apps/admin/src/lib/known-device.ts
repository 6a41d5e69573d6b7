import { knownDeviceStore } from '@lm/shared/client/known-device';
import { ADMIN_KNOWN_DEVICE_KEY } from '@/config/constants';

/** This browser's known device for the console (ADR 055). */
export const knownDevice = knownDeviceStore(ADMIN_KNOWN_DEVICE_KEY);
