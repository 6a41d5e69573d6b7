import { DEFAULT_SKIN, SKINS, THEMES } from '@lm/shared/channel';
import { contrastRatio, MIN_CONTRAST } from '@lm/shared/contrast';
import { describe, expect, it } from 'vitest';
import { monthlyPayment } from './copy';
import { LANDING_LAYOUTS, landingLayoutForSkin, SKIN_LAYOUTS } from './layouts';
import { resolveThemeColor, themeTokens } from './theme';

describe('theme tokens', () => {
  it('puts the channel colour on antd-mobile and the app tokens', () => {
    const t = themeTokens('#7B4DFF');
    expect(t['--adm-color-primary']).toBe(THEMES.purple.ink);
    expect(t['--app-primary']).toBe(THEMES.purple.ink);
    expect(t['--app-primary-light']).toMatch(/^#[0-9a-f]{6}$/);
    expect(t['--app-hero-bg']).toContain(THEMES.purple.ink);
  });

  // Issue 17: in every skin colour (and any colour a channel is given) white text on the buttons and
  // the hero, and coloured text on white, the page grey and the pale tint reach 4.5:1.
  const hexes = (css: string) => css.match(/#[0-9a-f]{6}/g) ?? [];
  for (const color of [...Object.values(THEMES).map((t) => t.primary), '#ffd400', '#00ff00', '#8ab4f8']) {
    it(`keeps text readable on the ${color} tokens`, () => {
      const t = themeTokens(color);
      const primary = t['--app-primary']!;
      expect(t['--adm-color-primary']).toBe(primary);
      expect(contrastRatio('#ffffff', primary)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      for (const bg of ['#ffffff', '#f5f6f8', '#f6f7f9', t['--app-primary-light']!]) {
        expect(contrastRatio(primary, bg)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      }
      const stops = hexes(t['--app-hero-bg']!);
      expect(stops.length).toBeGreaterThanOrEqual(2);
      for (const stop of stops) expect(contrastRatio('#ffffff', stop)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    });
  }

  it('gives the halo theme its glow', () => {
    expect(themeTokens(THEMES.halo.primary, 'halo')['--app-hero-bg']).toContain('radial-gradient');
    expect(themeTokens(THEMES.teal.primary, 'teal')['--app-hero-bg']).not.toContain('radial-gradient');
  });

  it('falls back to the theme colour, then red', () => {
    expect(resolveThemeColor('#14b8a6')).toBe('#14b8a6');
    expect(resolveThemeColor('#abc')).toBe('#aabbcc');
    expect(resolveThemeColor('not a colour', 'purple')).toBe(THEMES.purple.primary.toLowerCase());
    expect(resolveThemeColor(null, 'unknown')).toBe('#ff2c3e');
  });
});

describe('landing layouts', () => {
  it('maps every skin 8–23 to a layout and uses all four', () => {
    for (const skin of SKINS) expect(LANDING_LAYOUTS).toContain(SKIN_LAYOUTS[skin]);
    expect(new Set(Object.values(SKIN_LAYOUTS))).toEqual(new Set(LANDING_LAYOUTS));
  });

  it('gives unknown skins the default skin’s layout', () => {
    expect(landingLayoutForSkin(DEFAULT_SKIN)).toBe('hero-card');
    expect(landingLayoutForSkin(99)).toBe('hero-card');
    expect(landingLayoutForSkin(null)).toBe('hero-card');
    expect(landingLayoutForSkin(8)).toBe('amount-dial');
    expect(landingLayoutForSkin(12)).toBe('banner-benefits');
    expect(landingLayoutForSkin(10)).toBe('steps-list');
  });
});

describe('monthlyPayment', () => {
  it('computes equal instalments', () => {
    expect(monthlyPayment(10_000, 12, 7.2)).toBe(866);
    expect(monthlyPayment(10_000, 12, 24)).toBe(946);
    expect(monthlyPayment(12_000, 12, 0)).toBe(1000);
  });
});
