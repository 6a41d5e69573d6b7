/** The funnel filters every funnel call takes (from/to: Shanghai days YYYY-MM-DD). */
export interface FunnelFilters {
  from: string;
  to: string;
  /** Empty: every channel the account may see. */
  channelCodes: string[];
  skin?: number | undefined;
}

/** Query parameters of a funnel call: channel codes comma-separated. */
export function funnelParams(f: FunnelFilters): Record<string, unknown> {
  return {
    from: f.from,
    to: f.to,
    ...(f.channelCodes.length ? { channelCodes: f.channelCodes.join(',') } : {}),
    ...(f.skin === undefined ? {} : { skin: f.skin }),
  };
}

export const funnelQueryKey = ['admin', 'funnel'] as const;
