import { FLOW_ROUTES } from '@lm/shared/channel';

/** What the H5 gets without a channel (spec §7 h5Config): the rules' tests and the call's tests. */
export const DEFAULT_H5_CONFIG = {
  adChannelCode: '',
  channelStatus: 1,
  linkType: 4,
  skin: 17,
  theme: 'red',
  themeColor: '#FF2C3E',
  flow: 'default',
  flowRoutes: FLOW_ROUTES.default,
  title: null,
  icon: null,
  planTargetUrl: null,
};
