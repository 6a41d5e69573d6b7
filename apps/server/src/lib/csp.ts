import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CSP source expressions ('sha256-…') for the inline scripts of the built pages in `dir`, so the CSP
 * can keep `script-src 'self'` and allow exactly those scripts (the H5's pre-paint boot script).
 */
export function inlineScriptHashes(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const hashes = new Set<string>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.html')) continue;
    const html = readFileSync(join(dir, file), 'utf8');
    for (const m of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
      hashes.add(
        `'sha256-${createHash('sha256')
          .update(m[1] ?? '', 'utf8')
          .digest('base64')}'`,
      );
    }
  }
  return [...hashes];
}
