export type SmsPurpose = 'login' | 'cancel' | 'staff_login';

export interface SmsMessage {
  phone: string;
  code: string;
  purpose: SmsPurpose;
  ttlMinutes: number;
  /**
   * The signature, without its brackets: the operator's of the channel the code is sent for (ADR 057), the
   * gateway's sign name.
   */
  signature: string;
}

/** Sends verification codes. Implementations throw SmsSendError when the gateway refuses. */
export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}

export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly providerCode?: string,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}

export const PURPOSE_TEXT: Record<SmsPurpose, string> = {
  login: '登录',
  cancel: '注销账户',
  staff_login: '后台登录',
};

export function messageText(m: SmsMessage): string {
  return `【${m.signature}】您的${PURPOSE_TEXT[m.purpose]}验证码为${m.code}，${m.ttlMinutes}分钟内有效。如非本人操作，请忽略本短信。`;
}
