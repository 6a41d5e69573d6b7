import { maskPhone } from '@lm/shared/mask';
import type { FastifyBaseLogger } from 'fastify';
import { messageText, type SmsMessage, type SmsProvider } from './types.ts';

/**
 * Development provider: nothing leaves the machine. The message (with its code) goes to the server
 * log with the phone masked, and to the dev-only outbox read by GET /api/dev/sms-outbox.
 */
export class ConsoleSmsProvider implements SmsProvider {
  readonly name = 'console';
  constructor(
    /** The outbox table (modules/system SystemRepository). */
    private readonly outbox: {
      appendOutbox(row: { phoneHash: string; phoneMasked: string; message: string }): Promise<void>;
    },
    private readonly log: FastifyBaseLogger,
    private readonly phoneIndex: (phone: string) => string,
  ) {}

  async send(m: SmsMessage): Promise<void> {
    const text = messageText(m);
    const phoneMasked = maskPhone(m.phone);
    await this.outbox.appendOutbox({ phoneHash: this.phoneIndex(m.phone), phoneMasked, message: text });
    this.log.info({ sms: { to: phoneMasked, purpose: m.purpose, code: m.code } }, 'SMS (console provider)');
  }
}
