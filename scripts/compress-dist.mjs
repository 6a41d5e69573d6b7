#!/usr/bin/env node
/**
 * Writes .br and .gz next to every text asset of the built front ends, so the server sends them
 * pre-compressed (@fastify/static `preCompressed`) without compressing on each request.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = resolve(import.meta.dirname, '..');
const dirs = ['apps/web/dist', 'apps/admin/dist'].map((d) => join(root, d));
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

let files = 0;
let before = 0;
let after = 0;
for (const dir of dirs) {
  try {
    statSync(dir);
  } catch {
    continue;
  }
  for (const path of walk(dir)) {
    if (!TEXT.test(path) || path.endsWith('.map')) continue;
    const data = readFileSync(path);
    if (data.length < 1024) continue;
    const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
    files++;
    before += data.length;
    after += br.length;
  }
}
console.log(
  `compressed ${files} files: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB (brotli)`,
);
