import type { AdPlatform } from '@lm/shared/ad-clicks';
import { CONVERSION_STEPS, type ConversionStep, defaultEventMap, VALUED_STEPS } from '@lm/shared/conversions';
import type { ChannelConversionsBody, ChannelConversionsData } from '@lm/shared/schemas/conversions';

/** One step as the form edits it: the minimum amount in yuan. */
export interface StepFormValues {
  enabled: boolean;
  eventCode: string;
  firstOnly: boolean;
  minAmountYuan: number | null;
  sendValue: boolean;
}

/** The conversion settings as the form holds them (credentials: what is typed; '' leaves a secret alone). */
export interface ConversionsFormValues {
  enabled: boolean;
  platform: AdPlatform;
  windowDays: number;
  events: Record<ConversionStep, StepFormValues>;
  credentials: Record<string, string>;
}

const stepsToForm = (events: ChannelConversionsData['events']): ConversionsFormValues['events'] =>
  Object.fromEntries(
    CONVERSION_STEPS.map((s) => {
      const { minAmountFen, ...rest } = events[s];
      return [s, { ...rest, minAmountYuan: minAmountFen === null ? null : minAmountFen / 100 }];
    }),
  ) as ConversionsFormValues['events'];

/** The form's values of the stored settings: secrets empty (never answered), other credentials as stored. */
export function conversionsFormOf(data: ChannelConversionsData): ConversionsFormValues {
  return {
    enabled: data.enabled,
    platform: data.platform,
    windowDays: data.windowDays,
    events: stepsToForm(data.events),
    credentials: Object.fromEntries(data.credentials.map((c) => [c.key, c.secret ? '' : (c.shown ?? '')])),
  };
}

/** The form after choosing another platform: its documented event codes and no credentials. */
export function withPlatform(values: ConversionsFormValues, platform: AdPlatform): ConversionsFormValues {
  return { ...values, platform, events: stepsToForm(defaultEventMap(platform)), credentials: {} };
}

/**
 * The PUT body of the form: money in whole fen, the amount settings only on the steps that carry one, and
 * only the credentials the operator changed (a secret left empty stays as stored; a non-secret sent as typed).
 */
export function conversionsBodyOf(
  values: ConversionsFormValues,
  stored: ChannelConversionsData,
): ChannelConversionsBody {
  const events = Object.fromEntries(
    CONVERSION_STEPS.map((s) => {
      const e = values.events[s];
      const valued = VALUED_STEPS.includes(s);
      const yuan = e.minAmountYuan;
      return [
        s,
        {
          enabled: e.enabled,
          eventCode: (e.eventCode ?? '').trim(),
          firstOnly: e.firstOnly,
          minAmountFen:
            valued && yuan !== null && yuan !== undefined && !Number.isNaN(yuan)
              ? Math.round(yuan * 100)
              : null,
          sendValue: valued && e.sendValue,
        },
      ];
    }),
  ) as ChannelConversionsBody['events'];
  const samePlatform = values.platform === stored.platform;
  const credentials: Record<string, string> = {};
  for (const [key, raw] of Object.entries(values.credentials ?? {})) {
    const value = (raw ?? '').trim();
    const was = samePlatform ? stored.credentials.find((c) => c.key === key) : undefined;
    if (was?.secret && value === '') continue;
    if (was && !was.secret && value === (was.shown ?? '')) continue;
    if (!was && value === '') continue;
    credentials[key] = value;
  }
  return {
    enabled: values.enabled,
    platform: values.platform,
    windowDays: values.windowDays,
    events,
    ...(Object.keys(credentials).length ? { credentials } : {}),
  };
}
