// The C load generator of bench/paced-loader.c, for bench/hot-path.mjs --loader c: built here with the
// machine's C compiler (into bench/results/, not committed), fed a file of raw requests, its JSON read back.

import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(HERE, 'paced-loader.c');
const BINARY = path.join(HERE, 'results', 'paced-loader');

/** The loader's path, compiled first when it is missing or older than its source. */
export function pacedLoaderBinary() {
  if (!existsSync(BINARY) || statSync(BINARY).mtimeMs < statSync(SOURCE).mtimeMs) {
    mkdirSync(path.dirname(BINARY), { recursive: true });
    const cc = process.env.CC || 'cc';
    try {
      execFileSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', '-o', BINARY, SOURCE], { stdio: 'inherit' });
    } catch (err) {
      throw new Error(`--loader c needs a C compiler (${cc}): ${err.message}`);
    }
  }
  return BINARY;
}

/** Writes each connection's raw requests (arrays of Buffers) in the loader's file format; returns the path. */
export function writeRequestFile(pools) {
  const file = path.join(os.tmpdir(), `lm-paced-${process.pid}-${Date.now()}.bin`);
  const fd = openSync(file, 'w');
  const u32 = (n) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  try {
    // Written in chunks: a click-new pool is a few hundred thousand requests.
    let chunk = [u32(pools.length)];
    let bytes = 4;
    const spill = () => {
      writeSync(fd, Buffer.concat(chunk, bytes));
      chunk = [];
      bytes = 0;
    };
    for (const requests of pools) {
      chunk.push(u32(requests.length));
      bytes += 4;
      for (const r of requests) {
        chunk.push(u32(r.length), r);
        bytes += 4 + r.length;
        if (bytes > 1 << 22) spill();
      }
    }
    spill();
  } finally {
    closeSync(fd);
  }
  return file;
}

/**
 * Runs the loader against 127.0.0.1:`port` for `duration` s: paced at `rate` req/s over all connections, or
 * closed-loop without a rate, after `warmup` s left out of the figures. `cpu`: the CPU list to pin it to
 * (taskset), if any. Resolves with its JSON.
 */
export function runPacedLoader({ port, pools, duration, rate, warmup, expectBody, expectHeader, cpu }) {
  const binary = pacedLoaderBinary();
  const file = writeRequestFile(pools);
  const loaderArgs = ['--port', String(port), '--requests', file, '--duration', String(duration)];
  if (rate) loaderArgs.push('--rate', String(rate));
  if (warmup) loaderArgs.push('--warmup', String(warmup));
  if (expectBody) loaderArgs.push('--expect-body', expectBody);
  if (expectHeader) loaderArgs.push('--expect-header', expectHeader);
  const [cmd, argv] = cpu ? ['taskset', ['-c', cpu, binary, ...loaderArgs]] : [binary, loaderArgs];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(file, { force: true });
      if (code !== 0) return reject(new Error(`paced-loader exited with ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`paced-loader printed no JSON: ${out.slice(0, 200)} ${err.trim()}`));
      }
    });
  });
}
