import { describe, expect, it } from 'vitest';
import { AVATAR_COUNT, avatarDataUrl, avatarName, avatarNumberForUid, avatarSvg } from './avatar';

const numbers = Array.from({ length: AVATAR_COUNT }, (_, i) => i + 1);

/** Well-formed XML for the subset the generator writes: every opened element is closed in order. */
function isWellFormed(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-z]+)([^<>]*?)(\/?)>/g)) {
    const [, closing, name, attrs, selfClosing] = m;
    if (closing) {
      if (stack.pop() !== name) return false;
    } else if (!selfClosing) {
      stack.push(name!);
    }
    // Attributes: name="value" pairs only.
    if (attrs && !/^(\s+[a-zA-Z-]+="[^"<>]*")*\s*$/.test(attrs)) return false;
  }
  // Nothing outside the tags but nothing at all (no stray text).
  return stack.length === 0 && svg.replace(/<[^<>]+>/g, '') === '';
}

describe('avatars', () => {
  it('draws 50 different pictures, avatar-1 … avatar-50', () => {
    const svgs = numbers.map(avatarSvg);
    expect(new Set(svgs).size).toBe(50);
    expect(numbers.map(avatarName)).toEqual(numbers.map((n) => `avatar-${n}`));
  });

  it('gives every avatar its own background colour', () => {
    const backgrounds = numbers.map(
      (n) => avatarSvg(n).match(/<circle cx="32" cy="32" r="32" fill="(#[0-9a-f]{6})"/)?.[1],
    );
    expect(backgrounds.every((b) => b !== undefined)).toBe(true);
    expect(new Set(backgrounds).size).toBe(50);
  });

  it('is a well-formed SVG document under 1 KB', () => {
    for (const n of numbers) {
      const svg = avatarSvg(n);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"')).toBe(true);
      expect(svg.endsWith('</svg>')).toBe(true);
      expect(isWellFormed(svg), `avatar-${n}`).toBe(true);
      expect(new TextEncoder().encode(svg).length, `avatar-${n}`).toBeLessThan(1024);
    }
  });

  it('is deterministic', () => {
    expect(avatarSvg(17)).toBe(avatarSvg(17));
    expect(avatarDataUrl(3)).toBe(avatarDataUrl(3));
    expect(decodeURIComponent(avatarDataUrl(3).split(',')[1]!)).toBe(avatarSvg(3));
  });

  it('refuses numbers outside 1…50', () => {
    for (const bad of [0, 51, -1, 2.5, Number.NaN]) expect(() => avatarSvg(bad)).toThrow(RangeError);
  });

  it('picks avatar-((uid % 50) + 1) for a person', () => {
    expect(avatarNumberForUid(0)).toBe(1);
    expect(avatarNumberForUid(1)).toBe(2);
    expect(avatarNumberForUid(49)).toBe(50);
    expect(avatarNumberForUid(50)).toBe(1);
    expect(avatarNumberForUid(10_234)).toBe(35);
    for (let uid = 0; uid < 500; uid += 7) {
      const n = avatarNumberForUid(uid);
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(50);
    }
  });
});
