import type { Declaration, Plugin, Rule } from 'postcss';

/**
 * `gap` on a flex container is ignored by Chrome < 84 and iOS < 14.5 (engines of the legacy path: X5/TBS
 * 045, iOS 12–14; docs/h5.md): the items touch. For each rule that makes a flex container with a gap, a
 * fallback rule under `html.lm-no-flex-gap` (set by public/boot.js where flex gap does not work) spaces the
 * items with margins instead. Engines with flex gap never match it, so today's rendering is unchanged.
 * ADR 067.
 */
export const NO_FLEX_GAP_CLASS = 'lm-no-flex-gap';

const declared = (rule: Rule, prop: string): string | undefined => {
  let value: string | undefined;
  rule.each((node) => {
    if (node.type === 'decl' && (node as Declaration).prop === prop) value = (node as Declaration).value;
  });
  return value;
};

/** The space-separated values of `gap` (`calc(12 * var(--px)) 4px` is two). */
function words(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let word = '';
  for (const ch of value.trim()) {
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (/\s/.test(ch) && depth === 0) {
      if (word) out.push(word);
      word = '';
    } else word += ch;
  }
  if (word) out.push(word);
  return out;
}

export function flexGapFallback(): Plugin {
  return {
    postcssPlugin: 'lm-flex-gap-fallback',
    OnceExit(root) {
      root.walkRules((rule) => {
        if (rule.parent?.type === 'atrule' && /keyframes/i.test((rule.parent as { name: string }).name))
          return;
        if (rule.selector.includes(NO_FLEX_GAP_CLASS)) return;
        const display = declared(rule, 'display');
        if (display !== 'flex' && display !== 'inline-flex') return;
        const gap = declared(rule, 'gap');
        const [rowGap, columnGap] = gap
          ? (() => {
              const parts = words(gap);
              return [parts[0], parts[1] ?? parts[0]];
            })()
          : [declared(rule, 'row-gap'), declared(rule, 'column-gap')];
        if (!rowGap && !columnGap) return;
        const column = /^column/.test(declared(rule, 'flex-direction') ?? '');
        const wraps = /^wrap/.test(declared(rule, 'flex-wrap') ?? '');
        const zero = (v: string | undefined) => !v || /^0(px)?$/.test(v);
        const decls: [string, string][] = [];
        if (wraps) {
          // Every item keeps the gaps to its right and below (the last column and row keep them too).
          if (!zero(columnGap)) decls.push(['margin-right', columnGap!]);
          if (!zero(rowGap)) decls.push(['margin-bottom', rowGap!]);
        } else if (column) {
          if (!zero(rowGap)) decls.push(['margin-top', rowGap!]);
        } else if (!zero(columnGap)) decls.push(['margin-left', columnGap!]);
        if (decls.length === 0) return;
        const selectors = rule.selectors.map((s) =>
          wraps ? `html.${NO_FLEX_GAP_CLASS} ${s} > *` : `html.${NO_FLEX_GAP_CLASS} ${s} > * + *`,
        );
        const fallback = rule.clone({ selectors, nodes: [] });
        for (const [prop, value] of decls) fallback.append({ prop, value });
        rule.after(fallback);
      });
    },
  };
}
