import { knownDeviceStore } from '@lm/shared/client/known-device';
import { STORAGE_KEYS } from '@/config/constants';

/** This browser's known-device token (ADR 055): kept across logouts, sent on the send-code and login calls. */
export const knownDevice = knownDeviceStore(STORAGE_KEYS.knownDevice);
