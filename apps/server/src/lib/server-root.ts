import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest directory at or above `dir` that holds a package.json. */
export function packageRootOf(dir: string): string {
  for (let d = dir; ; ) {
    if (existsSync(join(d, 'package.json'))) return d;
    const up = dirname(d);
    if (up === d) throw new Error(`no package.json at or above ${dir}`);
    d = up;
  }
}

/**
 * apps/server: the package this module belongs to — found from `src/lib/` when run from the sources, from
 * `dist/` when run built (ADR 064). Files the server reads beside its code (the migrations, the front ends'
 * builds) are named from here, never from the module's own place, which bundling changes.
 */
export const SERVER_ROOT = packageRootOf(dirname(fileURLToPath(import.meta.url)));
