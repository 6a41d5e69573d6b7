/**
 * The channel edit form (pure): form values ↔ the API's draft, and the A/B share of each arm.
 */
import { DEFAULT_SKIN } from '@lm/shared/channel';
import {
  type ChannelAdminDetail,
  type ChannelDraftInput,
  COLOUR_FLAGS,
  FLOW_FLAGS,
} from '@lm/shared/schemas/admin-channels';

export interface ChannelFormValues {
  adChannelCode: string;
  name: string;
  enabled: boolean;
  linkType: number;
  skin: number;
  /** '' = classic red. */
  colour: string;
  /** '' = default flow. */
  flow: string;
  features: string[];
  abEnabled: boolean;
  skinArms: { skin: number; weight: number }[];
  excludeCityCodes: string[];
  planTargetUrl: string;
  pageTitle: string;
  pageIcon: string;
  needsLocation: boolean;
  trackEnabled: boolean;
  trackPlatform: string;
  trackParams: string[];
  allowedHosts: string[];
  /** The operator its footer, agreements and SMS name (ADR 057); '' = the configured default operator. */
  operatorCode: string;
}

export const EMPTY_CHANNEL: ChannelFormValues = {
  adChannelCode: '',
  name: '',
  enabled: true,
  linkType: 4,
  skin: DEFAULT_SKIN,
  colour: '',
  flow: '',
  features: [],
  abEnabled: false,
  skinArms: [
    { skin: DEFAULT_SKIN, weight: 50 },
    { skin: 12, weight: 50 },
  ],
  excludeCityCodes: [],
  planTargetUrl: '',
  pageTitle: '',
  pageIcon: '',
  needsLocation: false,
  trackEnabled: false,
  trackPlatform: '',
  trackParams: [],
  allowedHosts: [],
  operatorCode: '',
};

export function formFromDetail(d: ChannelAdminDetail): ChannelFormValues {
  return {
    adChannelCode: d.adChannelCode,
    name: d.name,
    enabled: d.channelStatus === 1,
    linkType: d.linkType,
    skin: d.skin,
    colour: d.flags.find((f) => COLOUR_FLAGS.includes(f)) ?? '',
    flow: d.flags.find((f) => FLOW_FLAGS.includes(f)) ?? '',
    features: d.flags.filter((f) => !COLOUR_FLAGS.includes(f) && !FLOW_FLAGS.includes(f)),
    abEnabled: Boolean(d.skinArms && d.skinArms.length >= 2),
    skinArms: d.skinArms?.length
      ? d.skinArms
      : [...EMPTY_CHANNEL.skinArms].map((a, i) => (i === 0 ? { ...a, skin: d.skin } : a)),
    excludeCityCodes: d.excludeCityCodes,
    planTargetUrl: d.planTargetUrl ?? '',
    pageTitle: d.pageTitle ?? '',
    pageIcon: d.pageIcon ?? '',
    needsLocation: d.needsLocation,
    trackEnabled: Boolean(d.trackReport),
    trackPlatform: d.trackReport?.platform ?? '',
    trackParams: d.trackReport?.params ?? [],
    allowedHosts: d.allowedHosts,
    operatorCode: d.operator?.code ?? '',
  };
}

/** The API draft of the form (empty optional fields are cleared on the server). */
export function draftFromForm(v: Partial<ChannelFormValues>): ChannelDraftInput {
  const f = { ...EMPTY_CHANNEL, ...v };
  return {
    name: f.name?.trim() ?? '',
    channelStatus: f.enabled ? 1 : 0,
    linkType: f.linkType,
    skin: f.skin,
    flags: [f.colour, f.flow, ...(f.features ?? [])].filter((x): x is string => Boolean(x)),
    skinArms: f.abEnabled ? (f.skinArms ?? []).map((a) => ({ skin: a?.skin, weight: a?.weight })) : null,
    excludeCityCodes: f.excludeCityCodes ?? [],
    planTargetUrl: f.planTargetUrl?.trim() || null,
    pageTitle: f.pageTitle?.trim() || null,
    pageIcon: f.pageIcon?.trim() || null,
    needsLocation: Boolean(f.needsLocation),
    trackReport: f.trackEnabled
      ? { platform: f.trackPlatform?.trim() ?? '', params: f.trackParams ?? [] }
      : null,
    allowedHosts: (f.allowedHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean),
    operatorCode: f.operatorCode || null,
  };
}

/** Each arm's share of the traffic in percent (one decimal); 0 for all when no weight is set. */
export function armShares(arms: readonly { weight?: number | null }[]): number[] {
  const weights = arms.map((a) =>
    Number.isFinite(a?.weight) && (a?.weight ?? 0) > 0 ? (a!.weight as number) : 0,
  );
  const total = weights.reduce((s, w) => s + w, 0);
  return weights.map((w) => (total ? Math.round((w / total) * 1000) / 10 : 0));
}

/** Province→city picker paths (antd Cascader, SHOW_CHILD) ↔ city codes. */
export function cityCodesFromPaths(paths: readonly (readonly (string | number)[])[]): string[] {
  return [...new Set(paths.map((p) => String(p[p.length - 1])).filter((c) => /^\d{6}$/.test(c)))];
}

/** The form field of a server validation error (`fields[].field`, e.g. "skinArms.1.weight"). */
export function formFieldOf(serverField: string): (string | number)[] | null {
  const parts = serverField.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const [head, ...rest] = parts;
  switch (head) {
    case 'adChannelCode':
    case 'name':
    case 'linkType':
    case 'skin':
    case 'planTargetUrl':
    case 'pageTitle':
    case 'pageIcon':
    case 'excludeCityCodes':
    case 'allowedHosts':
      return [head];
    case 'channelStatus':
      return ['enabled'];
    case 'flags':
      return ['features'];
    case 'skinArms':
      return rest.length >= 2 ? ['skinArms', ...rest.slice(0, 2)] : ['skinArms'];
    case 'trackReport':
      return [rest[0] === 'params' ? 'trackParams' : 'trackPlatform'];
    case 'operatorCode':
      return ['operatorCode'];
    default:
      return null;
  }
}
