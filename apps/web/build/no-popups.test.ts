import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * In-app browsers (WeChat, Douyin, Kuaishou …) block pages from opening windows: a partner page or a
 * download opened with `window.open` would do nothing there (docs/h5.md, support matrix). The H5 navigates
 * (`location.assign`, /inline-page) instead; this keeps it so.
 */
const SRC = join(import.meta.dirname, '../src');

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) yield path;
  }
}

describe('no pop-up windows', () => {
  it('no source of the H5 calls window.open or opens a link in a new window', () => {
    const found: string[] = [];
    let files = 0;
    for (const file of sources(SRC)) {
      files++;
      const code = readFileSync(file, 'utf8');
      if (/\bwindow\.open\s*\(|\bopen\(\s*['"`]http|target=["'{]_blank/.test(code))
        found.push(relative(SRC, file));
    }
    expect(files).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});
