import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CSP source expressions ('sha256-…') for the inline scripts of the built pages in `dir`, so the CSP
 * can keep `script-src 'self'` and allow exactly those scripts.
 */
export function inlineScriptHashes(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const hashes = new Set<string>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.html')) continue;
    const html = readFileSync(join(dir, file), 'utf8');
    // Every inline script (the boot script; @vitejs/plugin-legacy's module check, legacy fallback, Safari
    // 10.1 fix and SystemJS start, ADR 067) but data (application/json, never run).
    for (const m of html.matchAll(
      /<script(?![^>]*\ssrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g,
    )) {
      hashes.add(
        `'sha256-${createHash('sha256')
          .update(m[1] ?? '', 'utf8')
          .digest('base64')}'`,
      );
    }
  }
  return [...hashes];
}
