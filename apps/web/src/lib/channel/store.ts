import {
  AGREEMENT_PAGES,
  DEFAULT_SKIN,
  DEFAULT_THEME,
  FLOW_ROUTES,
  type H5Config,
  THEMES,
} from '@lm/shared/channel';
import { useSyncExternalStore } from 'react';
import { createStore } from 'zustand/vanilla';

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

const channelStore = createStore<ChannelState>((set) => ({
  adChannelCode: '',
  config: DEFAULT_H5_CONFIG,
  status: 'idle',
  preview: false,
  setPreview: (preview) => set({ preview }),
  setChannel: (adChannelCode) => set({ adChannelCode }),
  setConfig: (config) => set({ config }),
  setStatus: (status) => set({ status }),
}));

/**
 * Channel state of the H5: code, h5Config and its loading status. A zustand store whose server
 * snapshot is its current state (zustand's own hook renders the initial state on the server): the
 * server renders a channel's landing with that channel's configuration set (prerender.tsx, issue 17.1).
 */
export const useChannelStore = Object.assign(<T>(selector: (state: ChannelState) => T): T => {
  const read = () => selector(channelStore.getState());
  return useSyncExternalStore(channelStore.subscribe, read, read);
}, channelStore);

/** The current channel configuration (defaults until h5Config has answered). */
export function useH5Config(): H5Config {
  return useChannelStore((s) => s.config);
}
