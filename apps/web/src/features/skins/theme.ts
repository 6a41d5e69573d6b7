/**
 * Channel colour → design tokens (spec §1: default red #FF2C3E; purple, shallow blue, halo blue, teal).
 * The tokens are CSS custom properties set on <html>: antd-mobile's `--adm-color-primary` (every
 * antd-mobile component follows it) and our own `--app-*` tokens used by the page styles.
 */
import { DEFAULT_THEME, THEMES, type ThemeName } from '@lm/shared/channel';
import { accessibleShade, parseHex, type Rgb, toHex } from '@lm/shared/contrast';

export type ThemeTokens = Record<`--${string}`, string>;

/** Mixes `rgb` with `target` by `amount` (0 = rgb, 1 = target). */
const mix = (rgb: Rgb, target: Rgb, amount: number): Rgb =>
  [0, 1, 2].map((i) => rgb[i]! + (target[i]! - rgb[i]!) * amount) as unknown as Rgb;

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

/**
 * The colour to use: the channel's themeColor when it is a valid hex colour, else its theme's colour,
 * else the default red.
 */
export function resolveThemeColor(themeColor: string | null | undefined, theme?: string | null): string {
  const parsed = themeColor ? parseHex(themeColor) : null;
  if (parsed) return toHex(parsed);
  const named = theme && theme in THEMES ? THEMES[theme as ThemeName] : THEMES[DEFAULT_THEME];
  return named.primary.toLowerCase();
}

/** All tokens for one colour. `theme` adds the halo variant's glow behind the hero. */
export function themeTokens(color: string, theme?: string | null): ThemeTokens {
  const brand = parseHex(color) ?? parseHex(THEMES[DEFAULT_THEME].primary)!;
  // Buttons, links, coloured text and the hero behind white text use the accessible shade of the
  // channel colour (issue 17: 4.5:1 for white on it and for it on white / the page grey); the pale
  // decorative tints keep the brand colour itself.
  const primary = accessibleShade(toHex(brand));
  const rgb = parseHex(primary)!;
  const dark = toHex(mix(rgb, BLACK, 0.12));
  // 95 % white: the shade as text on this tint still reaches 4.5:1.
  const light = toHex(mix(rgb, WHITE, 0.95));
  const soft = toHex(mix(brand, WHITE, 0.75));
  // White text sits on every part of the hero, so it runs from the shade to darker, never lighter.
  const gradient = `linear-gradient(160deg, ${primary} 0%, ${primary} 45%, ${dark} 100%)`;
  const hero =
    theme === 'halo'
      ? `radial-gradient(circle at 85% 10%, rgba(255, 255, 255, 0.45) 0, rgba(255, 255, 255, 0) 45%), ${gradient}`
      : gradient;
  return {
    '--adm-color-primary': primary,
    '--app-primary': primary,
    '--app-primary-dark': dark,
    '--app-primary-light': light,
    '--app-primary-soft': soft,
    '--app-primary-shadow': `rgba(${brand.join(', ')}, 0.12)`,
    '--app-hero-bg': hero,
  };
}

/**
 * Writes the tokens on `root` (inline style wins over the stylesheet defaults in global.css) and the
 * browser UI colour (`<meta name="theme-color">`).
 */
export function applyTheme(root: HTMLElement, tokens: ThemeTokens): void {
  for (const [name, value] of Object.entries(tokens)) root.style.setProperty(name, value);
  const meta = root.ownerDocument.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const primary = tokens['--app-primary'];
  if (meta && primary) meta.content = primary;
}
