import { describe, expect, it } from 'vitest';
import { THEMES } from './channel.ts';
import {
  accessibleShade,
  contrastRatio,
  LIGHT_SURFACES,
  MIN_CONTRAST,
  parseHex,
  relativeLuminance,
} from './contrast.ts';

/** Hue in degrees (HSV/HSL hue) of a hex colour. */
function hue(hex: string): number {
  const [r, g, b] = parseHex(hex)!.map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe('WCAG contrast', () => {
  it('computes luminance and ratios as WCAG defines them', () => {
    expect(relativeLuminance('#ffffff')).toBe(1);
    expect(relativeLuminance('#000')).toBe(0);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#000000')).toBe(21);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // Known values: #767676 is the lightest grey with 4.5:1 on white; #FF2C3E on white is 3.7.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#FF2C3E', '#ffffff')).toBeCloseTo(3.7, 2);
  });

  it('darkens a colour only as far as needed, keeping its hue', () => {
    expect(accessibleShade('#000000')).toBe('#000000');
    expect(accessibleShade('#1f2937')).toBe('#1f2937'); // already dark enough: unchanged
    const shade = accessibleShade('#14B8A6');
    expect(contrastRatio(shade, '#ffffff')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(Math.abs(hue(shade) - hue('#14B8A6'))).toBeLessThan(1.5);
    // One percent lighter would miss the ratio on the page grey or on white.
    const [r, g, b] = parseHex('#14B8A6')!;
    const percent = Math.round((parseHex(shade)![1] / g) * 100);
    const lighter = `#${[r, g, b]
      .map((c) =>
        Math.round((c * (percent + 1)) / 100)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    expect(LIGHT_SURFACES.some((bg) => contrastRatio(lighter, bg) < MIN_CONTRAST)).toBe(true);
  });
});

describe('channel colours (issue 17: text and buttons readable in every skin)', () => {
  for (const [name, theme] of Object.entries(THEMES)) {
    it(`${name}: white text on its buttons and its links on white and on the page grey reach 4.5:1`, () => {
      expect(contrastRatio('#ffffff', theme.ink)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      for (const surface of LIGHT_SURFACES) {
        expect(contrastRatio(theme.ink, surface)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      }
    });
    it(`${name}: the accessible shade is the brand colour darkened, same hue`, () => {
      expect(theme.ink).toBe(accessibleShade(theme.primary));
      expect(Math.abs(hue(theme.ink) - hue(theme.primary))).toBeLessThan(1.5);
      expect(relativeLuminance(theme.ink)).toBeLessThanOrEqual(relativeLuminance(theme.primary));
    });
  }
});
