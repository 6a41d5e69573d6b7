/**
 * The phone and 获取验证码 checks of the code forms outside the landing (staff login, account
 * cancellation). The H5 login form writes the same steps out itself: this module is not in the
 * landing's first load.
 */
import { isValidPhone, PHONE_FORMAT_MSG, PHONE_REQUIRED_MSG } from '@lm/shared/validators/phone';
import { browserOnline, type SendCodeState, sendCodeStep } from './send-code';

/** What is wrong with a typed phone (empty, or not a mainland mobile number); null when it is fine. */
export function phoneProblem(value: string): string | null {
  if (!value) return PHONE_REQUIRED_MSG;
  return isValidPhone(value) ? null : PHONE_FORMAT_MSG;
}

/**
 * A tap on 获取验证码 with the browser's idea of the network: true to send; false while a countdown
 * runs or a send is in flight, and when offline (after `onOffline` got the message to show).
 */
export function tapSendCode(
  state: Omit<SendCodeState, 'online'>,
  onOffline: (message: string) => void,
  online: boolean = browserOnline(),
): boolean {
  const step = sendCodeStep({ ...state, online });
  if (step.kind === 'offline') onOffline(step.message);
  return step.kind === 'send';
}
