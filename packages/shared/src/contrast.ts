/**
 * Colour contrast (WCAG 2.x, issue 17): relative luminance, contrast ratio, and the accessible shade of a
 * skin colour — the same hue darkened just enough that white text on it and it as text on a light page
 * reach the ratio normal text needs. Pure functions, no dependencies (the landing bundle imports them).
 */

export type Rgb = readonly [number, number, number];

/** Normal text needs 4.5:1; large text (≥ 24px, or bold ≥ 18.66px) 3:1 (WCAG 2.x AA). */
export const MIN_CONTRAST = 4.5;
export const MIN_CONTRAST_LARGE = 3;

/** The light surfaces the skin colour is drawn on as text: cards (white) and the page (`--app-bg`). */
export const LIGHT_SURFACES = ['#ffffff', '#f5f6f8'] as const;

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function parseHex(value: string): Rgb | null {
  const m = HEX.exec(value.trim());
  if (!m) return null;
  let hex = m[1]!;
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const n = Number.parseInt(hex, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export const toHex = (rgb: Rgb): string =>
  `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

function rgbOf(color: string | Rgb): Rgb {
  if (typeof color !== 'string') return color;
  const rgb = parseHex(color);
  if (!rgb) throw new Error(`not a hex colour: ${color}`);
  return rgb;
}

/** WCAG relative luminance (0 = black, 1 = white). */
export function relativeLuminance(color: string | Rgb): number {
  const [r, g, b] = rgbOf(color).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours, 1 … 21 (order does not matter). */
export function contrastRatio(a: string | Rgb, b: string | Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * The shade of `color` to use for text, buttons and links: `color` itself when white on it and it on each
 * of `surfaces` reach `min`, else the same hue scaled towards black (every channel × k, so hue and
 * saturation stay) by the least whole percent that reaches it. Lowercase `#rrggbb`.
 */
export function accessibleShade(
  color: string,
  surfaces: readonly string[] = LIGHT_SURFACES,
  min: number = MIN_CONTRAST,
): string {
  const rgb = rgbOf(color);
  const backgrounds = ['#ffffff', ...surfaces];
  for (let percent = 100; percent >= 0; percent--) {
    const hex = toHex(rgb.map((c) => (c * percent) / 100) as unknown as Rgb);
    if (backgrounds.every((bg) => contrastRatio(hex, bg) >= min)) return hex;
  }
  return '#000000';
}
