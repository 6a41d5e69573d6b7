/**
 * Visual regression (issue 16.2): a page's screenshot is compared with a committed baseline in
 * e2e/baselines. A pixel differs when one of its colour channels is off by more than
 * CHANNEL_TOLERANCE (anti-aliasing and font hinting stay below it); a screenshot fails when more
 * than MAX_DIFF_RATIO of its pixels differ. On failure the actual screenshot and a diff image (red:
 * differing pixels over a faded copy of the baseline) go to e2e/screenshots/visual.
 * `UPDATE_BASELINES=1` rewrites the baselines instead of comparing (commit them after looking at them).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCanvas, type ImageData, loadImage } from '@napi-rs/canvas';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './browser.ts';

export const BASELINE_DIR = resolve(import.meta.dirname, 'baselines');
export const VISUAL_DIFF_DIR = resolve(SCREENSHOT_DIR, 'visual');
export const CHANNEL_TOLERANCE = 40;
export const MAX_DIFF_RATIO = 0.005;

const updating = () => process.env.UPDATE_BASELINES === '1';

async function decode(png: Buffer): Promise<ImageData> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, image.width, image.height);
}

export interface Comparison {
  width: number;
  height: number;
  differing: number;
  ratio: number;
  /** The diff image (PNG). */
  diff: Buffer;
}

/** Compares two PNGs of the same size pixel by pixel. */
export async function comparePngs(actualPng: Buffer, expectedPng: Buffer): Promise<Comparison> {
  const [actual, expected] = await Promise.all([decode(actualPng), decode(expectedPng)]);
  if (actual.width !== expected.width || actual.height !== expected.height) {
    throw new Error(
      `size ${actual.width}×${actual.height} differs from the baseline's ${expected.width}×${expected.height}`,
    );
  }
  const { width, height } = actual;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const out = ctx.createImageData(width, height);
  let differing = 0;
  const a = actual.data;
  const e = expected.data;
  for (let i = 0; i < a.length; i += 4) {
    const off = Math.max(
      Math.abs(a[i]! - e[i]!),
      Math.abs(a[i + 1]! - e[i + 1]!),
      Math.abs(a[i + 2]! - e[i + 2]!),
      Math.abs(a[i + 3]! - e[i + 3]!),
    );
    if (off > CHANNEL_TOLERANCE) {
      differing++;
      out.data.set([255, 0, 0, 255], i);
    } else {
      const grey = Math.round(0.3 * e[i]! + 0.59 * e[i + 1]! + 0.11 * e[i + 2]!);
      const faded = Math.round(255 - (255 - grey) * 0.25);
      out.data.set([faded, faded, faded, 255], i);
    }
  }
  ctx.putImageData(out, 0, 0);
  return {
    width,
    height,
    differing,
    ratio: differing / (width * height),
    diff: canvas.toBuffer('image/png'),
  };
}

/** Makes what varies between runs still: no animations or transitions, no caret. */
export async function freeze(page: Page): Promise<void> {
  await page.addStyleTag({
    content:
      '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important}',
  });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** The viewport as the baselines have it (no animations, no caret). */
export function screenshot(page: Page): Promise<Buffer> {
  return page.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
}

/**
 * Compares a screenshot with e2e/baselines/<name>.png; throws a message naming the files when it
 * differs (the actual and the diff written to e2e/screenshots/visual) or when there is no baseline.
 */
export async function compareWithBaseline(png: Buffer, name: string): Promise<Comparison> {
  const baseline = resolve(BASELINE_DIR, `${name}.png`);
  if (!existsSync(baseline)) {
    throw new Error(
      `no baseline e2e/baselines/${name}.png: run with UPDATE_BASELINES=1, look at it, commit it`,
    );
  }
  const result = await comparePngs(png, readFileSync(baseline));
  if (result.ratio > MAX_DIFF_RATIO) {
    mkdirSync(VISUAL_DIFF_DIR, { recursive: true });
    const actualPath = resolve(VISUAL_DIFF_DIR, `${name}-actual.png`);
    const diffPath = resolve(VISUAL_DIFF_DIR, `${name}-diff.png`);
    writeFileSync(actualPath, png);
    writeFileSync(diffPath, result.diff);
    throw new Error(
      `${name}: ${(result.ratio * 100).toFixed(2)} % of the pixels (${result.differing}) differ from ` +
        `e2e/baselines/${name}.png (allowed ${(MAX_DIFF_RATIO * 100).toFixed(1)} %); see ${actualPath} and ${diffPath}`,
    );
  }
  return result;
}

/**
 * Screenshots the viewport and compares it with its baseline (compareWithBaseline); with
 * UPDATE_BASELINES=1 writes the baseline instead.
 */
export async function expectMatchesBaseline(page: Page, name: string): Promise<Comparison | null> {
  const png = await screenshot(page);
  if (updating()) {
    mkdirSync(BASELINE_DIR, { recursive: true });
    writeFileSync(resolve(BASELINE_DIR, `${name}.png`), png);
    return null;
  }
  return compareWithBaseline(png, name);
}
