import { createRequire } from 'node:module';
import { messageText, type SmsMessage, type SmsProvider, SmsSendError } from './types.ts';

export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  templateCode: string;
  endpoint: string;
}

interface SendSmsClient {
  sendSms(req: unknown): Promise<{ body?: { code?: string; message?: string; bizId?: string } }>;
}

const require = createRequire(import.meta.url);

/**
 * Aliyun SMS (dysmsapi 2017-05-25) through its official SDK. The template must take one
 * variable, `code`; the sign name is the message's signature (the operator's, ADR 057), registered with
 * Aliyun for each operator. The gateway's own refusals (e.g. isv.BUSINESS_LIMIT_CONTROL) become SmsSendError.
 */
export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun';
  private readonly client: SendSmsClient;
  private readonly SendSmsRequest: new (
    init: Record<string, unknown>,
  ) => unknown;

  constructor(private readonly config: AliyunSmsConfig) {
    const sdk = require('@alicloud/dysmsapi20170525') as {
      default: new (cfg: unknown) => SendSmsClient;
      SendSmsRequest: new (init: Record<string, unknown>) => unknown;
    };
    const core = require('@alicloud/openapi-core') as {
      $OpenApiUtil: { Config: new (init: Record<string, unknown>) => unknown };
    };
    const cfg = new core.$OpenApiUtil.Config({
      accessKeyId: config.accessKeyId,
      accessKeySecret: config.accessKeySecret,
      endpoint: config.endpoint,
    });
    this.client = new sdk.default(cfg);
    this.SendSmsRequest = sdk.SendSmsRequest;
  }

  async send(m: SmsMessage): Promise<void> {
    const request = new this.SendSmsRequest({
      phoneNumbers: m.phone,
      signName: m.signature,
      templateCode: this.config.templateCode,
      templateParam: JSON.stringify({ code: m.code }),
    });
    let body: { code?: string; message?: string } | undefined;
    try {
      body = (await this.client.sendSms(request)).body;
    } catch (err) {
      throw new SmsSendError(`Aliyun SMS request failed: ${(err as Error).message}`);
    }
    if (body?.code !== 'OK') {
      throw new SmsSendError(`Aliyun SMS refused: ${body?.message ?? 'no answer'}`, body?.code);
    }
  }

  /** The text the template renders, for logs and previews. */
  preview(m: SmsMessage): string {
    return messageText(m);
  }
}
