import postcss from 'postcss';
import { describe, expect, it } from 'vitest';
import { flexGapFallback } from './flex-gap-fallback.ts';

const run = async (css: string) => (await postcss([flexGapFallback()]).process(css, { from: undefined })).css;

describe('flexGapFallback', () => {
  it('a row: every item after the first gets the gap as its left margin', async () => {
    expect(await run('.a{display:flex;gap:8px}')).toBe(
      '.a{display:flex;gap:8px}html.lm-no-flex-gap .a > * + *{margin-left:8px}',
    );
  });

  it('a column: the row gap as a top margin (of `gap: row column`, the first)', async () => {
    expect(await run('.a{display:flex;flex-direction:column;gap:calc(12 * var(--px)) 4px}')).toContain(
      'html.lm-no-flex-gap .a > * + *{margin-top:calc(12 * var(--px))}',
    );
  });

  it('wrapping items: each keeps the gaps to its right and below', async () => {
    expect(await run('.a{display:flex;flex-wrap:wrap;gap:4px 12px}')).toContain(
      'html.lm-no-flex-gap .a > *{margin-right:12px;margin-bottom:4px}',
    );
    // A zero gap gives no margin.
    expect(await run('.a{display:flex;flex-wrap:wrap;gap:0 8px}')).toContain(
      'html.lm-no-flex-gap .a > *{margin-right:8px}',
    );
  });

  it('row-gap / column-gap alone, inline-flex, every selector of a list', async () => {
    expect(await run('.a,.b li{display:inline-flex;column-gap:6px}')).toContain(
      'html.lm-no-flex-gap .a > * + *,html.lm-no-flex-gap .b li > * + *{margin-left:6px}',
    );
  });

  it('leaves grid gaps, rules without a gap and keyframes alone', async () => {
    for (const css of [
      '.a{display:grid;gap:8px}',
      '.a{display:flex}',
      '.a{gap:8px}',
      '@keyframes k{from{display:flex;gap:1px}}',
      '.a{display:flex;gap:0}',
    ]) {
      expect(await run(css)).toBe(css);
    }
  });
});
