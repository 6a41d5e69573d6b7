import {
  AGREEMENT_PAGES,
  DEFAULT_SKIN,
  DEFAULT_THEME,
  FLOW_ROUTES,
  type H5Config,
  THEMES,
} from '@lm/shared/channel';
import { create } from 'zustand';

/** The configuration used before h5Config answers, and when it cannot be loaded. */
export const DEFAULT_H5_CONFIG: H5Config = {
  adChannelCode: '',
  name: '默认',
  channelStatus: 1,
  linkType: 4,
  skin: DEFAULT_SKIN,
  theme: DEFAULT_THEME,
  themeColor: THEMES[DEFAULT_THEME].primary,
  flow: 'default',
  flowRoutes: FLOW_ROUTES.default,
  flags: [],
  title: null,
  icon: null,
  needsLocation: false,
  excludeCityCodes: [],
  planTargetUrl: null,
  trackReport: null,
  allowedHosts: [],
  footer: [],
  agreements: AGREEMENT_PAGES.map((a) => ({ key: a.key, title: a.title, path: `/${a.key}` })),
};

export type ChannelStatus = 'idle' | 'loading' | 'ready' | 'failed';

interface ChannelState {
  /** The resolved advertising channel code ('' when none). */
  adChannelCode: string;
  config: H5Config;
  status: ChannelStatus;
  /** True in the console's live preview (previewToken): nothing is reported. */
  preview: boolean;
  setChannel(code: string): void;
  setConfig(config: H5Config): void;
  setStatus(status: ChannelStatus): void;
  setPreview(preview: boolean): void;
}

/** Channel state of the H5: code, h5Config and its loading status. */
export const useChannelStore = create<ChannelState>((set) => ({
  adChannelCode: '',
  config: DEFAULT_H5_CONFIG,
  status: 'idle',
  preview: false,
  setPreview: (preview) => set({ preview }),
  setChannel: (adChannelCode) => set({ adChannelCode }),
  setConfig: (config) => set({ config }),
  setStatus: (status) => set({ status }),
}));

/** The current channel configuration (defaults until h5Config has answered). */
export function useH5Config(): H5Config {
  return useChannelStore((s) => s.config);
}
