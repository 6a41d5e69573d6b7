import { describe, expect, it } from 'vitest';
import { FLOW_ROUTES, parseChannelFlags } from './channel.ts';

describe('channel flags', () => {
  it('defaults to skin17, red, default flow', () => {
    expect(parseChannelFlags('')).toEqual({ skin: 17, theme: 'red', flow: 'default', flags: [] });
    expect(parseChannelFlags(null).skin).toBe(17);
  });
  it('reads skin, colour and flow from the dash-separated value', () => {
    expect(parseChannelFlags('skin8-shallowBlue-fenqile')).toMatchObject({
      skin: 8,
      theme: 'shallowBlue',
      flow: 'fenqile',
    });
    expect(parseChannelFlags('skin23-halo-formprocess3')).toMatchObject({
      skin: 23,
      theme: 'halo',
      flow: 'formprocess3',
    });
    expect(parseChannelFlags('purple-formprocess4')).toMatchObject({
      skin: 17,
      theme: 'purple',
      flow: 'formprocess4',
    });
    expect(parseChannelFlags('teal-jufu').theme).toBe('teal');
  });
  it('ignores unknown skins and keeps unknown flags', () => {
    expect(parseChannelFlags('skin99-newthing')).toMatchObject({ skin: 17, flags: ['skin99', 'newthing'] });
  });
  it('maps flows to the spec routes', () => {
    expect(FLOW_ROUTES.default.form).toBe('/fill-information');
    expect(FLOW_ROUTES.fenqile.success).toBe('/fill-information/success');
    expect(FLOW_ROUTES.formprocess3.rematch).toBe('/fill-information-three/authorize-page-three');
    expect(FLOW_ROUTES.formprocess4.form).toBe('/fill-information-four');
  });
});
