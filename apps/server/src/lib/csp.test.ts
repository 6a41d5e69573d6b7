import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from './csp.ts';

const hash = (code: string) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes every inline script of the built pages — with attributes too — but not data or src scripts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'csp-'));
    writeFileSync(
      join(dir, 'index.html'),
      [
        '<script>boot()</script>',
        '<script type="module">import"/assets/module-check-1.js"</script>',
        '<script nomodule>fix()</script>',
        // `data-src` is not `src`: this one runs inline (the legacy build's SystemJS start).
        '<script nomodule crossorigin id="vite-legacy-entry" data-src="/assets/index-legacy-1.js">System.import(1)</script>',
        '<script nomodule crossorigin id="vite-legacy-polyfill" src="/assets/polyfills-legacy-1.js"></script>',
        '<script type="module" crossorigin src="/assets/index-1.js"></script>',
        '<script type="application/json" id="lm-channel">{"a":1}</script>',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'notes.txt'), '<script>not a page</script>');
    expect(inlineScriptHashes(dir).sort()).toEqual(
      [
        hash('boot()'),
        hash('import"/assets/module-check-1.js"'),
        hash('fix()'),
        hash('System.import(1)'),
      ].sort(),
    );
  });

  it('answers nothing for a directory that does not exist (the API without a built H5)', () => {
    expect(inlineScriptHashes(join(tmpdir(), 'no-such-dir-csp'))).toEqual([]);
  });
});
