import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Shanghai time is written out once (issue 44.21): the UTC+8 offset lives in shanghai-day.ts and every
 * day, midnight and wall-clock helper in time.ts. A source file of the apps that spells the offset
 * itself (8 * 3600_000, 28_800_000, +08:00, an Intl formatter in Asia/Shanghai) fails here. SQL that
 * asks the database for a Shanghai day (`at time zone 'Asia/Shanghai'`) is the database's conversion,
 * not a copy of ours.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIRS = ['apps/server/src', 'apps/web/src', 'apps/admin/src', 'packages/shared/src'];
const HOME = 'packages/shared/src/shanghai-day.ts';
const OFFSET = [
  /\b8\s*\*\s*(3600|3_600|60\s*\*\s*60)/,
  /\b28_?800_?000\b/,
  /\b480\s*\*\s*60/,
  /\+08:00/,
  /timeZone:\s*['"]Asia\/Shanghai['"]/,
];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(file).isDirectory()) out.push(...sources(file));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(file);
  }
  return out;
}

describe('one time module', () => {
  it('only shanghai-day.ts writes out the Shanghai offset', () => {
    const copies: string[] = [];
    for (const dir of DIRS)
      for (const file of sources(path.join(ROOT, dir))) {
        const rel = path.relative(ROOT, file);
        if (rel === HOME) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (OFFSET.some((re) => re.test(line))) copies.push(`${rel}:${i + 1}: ${line.trim()}`);
          });
      }
    expect(copies).toEqual([]);
  });

  it('finds a copy when there is one (the scan reads what it should)', () => {
    const home = readFileSync(path.join(ROOT, HOME), 'utf8');
    expect(OFFSET.some((re) => home.split('\n').some((l) => re.test(l)))).toBe(true);
  });
});
