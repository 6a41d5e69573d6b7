import { REAL_NAME_PATTERN } from '@lm/shared/schemas/application';
import { checkIdCard } from '@lm/shared/validators/id-card';

/**
 * Pulling the name and the identity number out of the text an OCR engine read from the front of a
 * resident identity card (姓名 / 性别 民族 / 出生 / 住址 / 公民身份号码 …). Engines add spaces
 * between Chinese characters, misread a label now and then, and confuse O/0, I/l/1, B/8 …; the
 * rules below allow for that. Pure, so every rule has a unit test.
 */

/** Labels printed on the card: never part of a name. */
const LABELS = /姓\s*名|性\s*别|民\s*族|出\s*生|住\s*址|公\s*民|身\s*份|号\s*码/;
/** A line that is past the name: sex / nation / birth / address / number lines. */
const AFTER_NAME = /性\s*别|民\s*族|出\s*生|住\s*址|公\s*民|号\s*码|[男女]|\d{4}\s*年/;
const HAN = /[\u4e00-\u9fa5]/;

/** Letters an engine reads in place of digits, inside a run of digits. */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  I: '1',
  l: '1',
  '|': '1',
  '!': '1',
  Z: '2',
  S: '5',
  B: '8',
  x: 'X',
  // a thin 1 read as a quote or bracket
  '”': '1',
  '“': '1',
  '"': '1',
  "'": '1',
  '[': '1',
  ']': '1',
};

function toAsciiDigits(s: string): string {
  return s.replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/Ｘ|ｘ/g, 'X');
}

/**
 * The identity number: 18 characters (17 digits and a digit or X) within a line, spaces removed and
 * look-alike letters mapped to digits. A candidate that passes the GB 11643 checks (region, birth
 * date, checksum) wins; otherwise the well-shaped one with the fewest look-alikes is returned for
 * the person to correct.
 */
export function findIdNumber(text: string): string | null {
  const shaped: { value: string; guessed: number }[] = [];
  for (const rawLine of toAsciiDigits(text).split(/\r?\n/)) {
    const line = rawLine.replace(/\s+/g, '');
    for (const token of line.match(/[0-9OoDQIl|!ZSBXx”“"'[\]]{15,}/g) ?? []) {
      const chars = [...token];
      const digits = chars.map((c) => DIGIT_LOOKALIKES[c] ?? c).join('');
      for (let i = 0; i + 18 <= digits.length; i++) {
        const value = digits.slice(i, i + 18);
        if (!/^\d{17}[\dX]$/.test(value)) continue;
        if (checkIdCard(value) === null) return value;
        const guessed = chars.slice(i, i + 18).filter((c) => c in DIGIT_LOOKALIKES).length;
        shaped.push({ value, guessed });
      }
    }
  }
  shaped.sort((a, b) => a.guessed - b.guessed);
  return shaped[0]?.value ?? null;
}

function hanOnly(s: string): string {
  return s.replace(/[^\u4e00-\u9fa5·]/g, '');
}

function asName(candidate: string): string | null {
  // Cut where a following field starts (an engine may join two lines).
  const cut = candidate.search(LABELS);
  const name = hanOnly(cut >= 0 ? candidate.slice(0, cut) : candidate);
  return REAL_NAME_PATTERN.test(name) ? name : null;
}

/**
 * The name: what follows the 姓名 label (or the next line when the label stands alone). When the
 * engine lost the label, the first line with Chinese text before the sex / birth lines is taken,
 * dropping a leading single character separated by a space (a misread label) — only when the
 * text is recognisably a card's.
 */
export function findName(text: string): string | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  for (let i = 0; i < lines.length; i++) {
    const m = /姓\s*名/.exec(lines[i]!);
    if (!m) continue;
    const after = asName(lines[i]!.slice(m.index + m[0].length));
    if (after) return after;
    const next = lines[i + 1];
    if (next && !AFTER_NAME.test(next)) return asName(next);
    return null;
  }
  // Without the label, guess only on text that is recognisably a card: an engine finds
  // "characters" in any texture.
  if (!looksLikeCard(text)) return null;
  for (const rawLine of lines) {
    if (AFTER_NAME.test(rawLine)) break;
    if (!HAN.test(rawLine)) continue;
    // A label with one character misread ("处 名", "姓 洺"): drop it.
    const line = rawLine.replace(
      /^[^\u4e00-\u9fa5]*(?:[\u4e00-\u9fa5]\s*名|姓\s*[\u4e00-\u9fa5])\s+(?=\S)/,
      '',
    );
    const tokens = line
      .split(/\s+/)
      .map(hanOnly)
      .filter((t) => t.length > 0);
    // A stray character before the name ("洗 王小明"), unless the name itself is spaced out.
    while (tokens.length > 1 && tokens[0]!.length === 1 && tokens.slice(1).some((t) => t.length > 1)) {
      tokens.shift();
    }
    return asName(tokens.join(''));
  }
  return null;
}

/** Whether the text shows a card's label (姓名, 性别 …) or an 18-character number. */
export function looksLikeCard(text: string): boolean {
  return LABELS.test(text) || findIdNumber(text) !== null;
}

export function parseIdCardText(text: string): { name: string | null; idNumber: string | null } {
  return { name: findName(text), idNumber: findIdNumber(text) };
}
