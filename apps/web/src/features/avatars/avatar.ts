/**
 * The 50 numbered avatars of spec §3 (`avatar-1` … `avatar-50`), drawn as small SVGs by a pure
 * function: no image files to download, the same picture for the same number on every device.
 *
 * Each number gets its own background hue (golden-angle steps round the colour wheel) and its own
 * combination of eyes (5 kinds), mouth (5 kinds) and hair (2 kinds): 5 × 5 × 2 = 50 faces.
 */

export const AVATAR_COUNT = 50;

const EYES = 5;
const MOUTHS = 5;

/** The avatar shown for a person: avatar-((uid % 50) + 1). */
export function avatarNumberForUid(uid: number): number {
  const n = Math.trunc(Number.isFinite(uid) ? Math.abs(uid) : 0);
  return (n % AVATAR_COUNT) + 1;
}

export function avatarName(n: number): string {
  return `avatar-${n}`;
}

function hslToHex(h: number, s: number, l: number): string {
  const sat = s / 100;
  const light = l / 100;
  const a = sat * Math.min(light, 1 - light);
  const channel = (offset: number) => {
    const k = (offset + h / 30) % 12;
    const c = light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

const SKINS = ['#ffe0c7', '#f6cfa8', '#eab48a', '#d9a074', '#ffd8b8'] as const;

function eyes(kind: number, ink: string): string {
  switch (kind) {
    case 0: // dots
      return `<circle cx="25" cy="33" r="2.4" fill="${ink}"/><circle cx="39" cy="33" r="2.4" fill="${ink}"/>`;
    case 1: // happy arcs
      return `<path d="M22 34q3-4 6 0M36 34q3-4 6 0" stroke="${ink}" stroke-width="2" fill="none" stroke-linecap="round"/>`;
    case 2: // glasses
      return `<g stroke="${ink}" stroke-width="1.6" fill="#fff"><circle cx="25" cy="33" r="4.5"/><circle cx="39" cy="33" r="4.5"/><path d="M29.5 33h5"/></g><circle cx="25" cy="33" r="1.6" fill="${ink}"/><circle cx="39" cy="33" r="1.6" fill="${ink}"/>`;
    case 3: // wink
      return `<circle cx="25" cy="33" r="2.4" fill="${ink}"/><path d="M36 33h6" stroke="${ink}" stroke-width="2" stroke-linecap="round"/>`;
    default: // big eyes
      return `<g fill="#fff"><ellipse cx="25" cy="33" rx="3.5" ry="4"/><ellipse cx="39" cy="33" rx="3.5" ry="4"/></g><g fill="${ink}"><circle cx="25.6" cy="33.6" r="2"/><circle cx="39.6" cy="33.6" r="2"/></g>`;
  }
}

function mouth(kind: number, ink: string, accent: string): string {
  switch (kind) {
    case 0: // smile
      return `<path d="M26 41q6 5 12 0" stroke="${ink}" stroke-width="2" fill="none" stroke-linecap="round"/>`;
    case 1: // open laugh
      return `<path d="M26 40h12q-6 8-12 0z" fill="${accent}"/>`;
    case 2: // calm line
      return `<path d="M28 42h8" stroke="${ink}" stroke-width="2" stroke-linecap="round"/>`;
    case 3: // surprised
      return `<circle cx="32" cy="42" r="2.6" fill="${accent}"/>`;
    default: // grin with teeth
      return `<rect x="26" y="39.5" width="12" height="5" rx="2.5" fill="#fff" stroke="${ink}" stroke-width="1.4"/>`;
  }
}

function hair(kind: number, colour: string): string {
  return kind === 0
    ? // short cut
      `<path d="M14 31q0-17 18-17t18 17q-4-8-18-8t-18 8z" fill="${colour}"/>`
    : // fringe with a bun
      `<circle cx="32" cy="11" r="5" fill="${colour}"/><path d="M14 33q-1-18 18-18t18 18q-6-3-9-9-6 6-18 6-5 0-9 3z" fill="${colour}"/>`;
}

/** The SVG markup of avatar `n` (1…50). Throws for any other number. */
export function avatarSvg(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > AVATAR_COUNT) {
    throw new RangeError(`avatar number must be 1…${AVATAR_COUNT}, got ${n}`);
  }
  const i = n - 1;
  const hue = Math.round((i * 137.508) % 360);
  const background = hslToHex(hue, 70, 86);
  const hairColour = hslToHex(hue, 45, 28);
  const ink = '#3a2a25';
  const accent = '#d9485f';
  const skin = SKINS[Math.floor(i / 10) % SKINS.length];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">` +
    `<circle cx="32" cy="32" r="32" fill="${background}"/>` +
    `<path d="M10 62q4-13 22-13t22 13a32 32 0 0 1-44 0z" fill="${hairColour}" opacity=".55"/>` +
    `<circle cx="32" cy="33" r="18" fill="${skin}"/>` +
    hair(Math.floor(i / (EYES * MOUTHS)) % 2, hairColour) +
    eyes(i % EYES, ink) +
    mouth(Math.floor(i / EYES) % MOUTHS, ink, accent) +
    `</svg>`
  );
}

/** A `data:` URL of avatar `n`, usable as an <img> source. */
export function avatarDataUrl(n: number): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(avatarSvg(n))}`;
}
