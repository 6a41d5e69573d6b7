import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';

/**
 * Test images drawn on the fly (nothing checked in, no system font): a specimen ID-card front with a
 * known name and number, a drawn face, a landscape without a face, a blank picture. The Chinese
 * text uses Noto Sans (GB 2312 subset, SIL OFL 1.1) from the `@embedpdf/fonts-sc` devDependency,
 * registered under family names of our own so that a system font is never picked by name.
 */
const require = createRequire(import.meta.url);
// The package exports only its index (dist/); the .otf files are beside it in fonts/.
const fontDir = path.join(path.dirname(require.resolve('@embedpdf/fonts-sc')), '..', 'fonts');
const REGULAR = 'LM Specimen Sans';
const BOLD = 'LM Specimen Sans Bold';
let fontsReady = false;
function registerFonts() {
  if (fontsReady) return;
  const ok =
    GlobalFonts.registerFromPath(path.join(fontDir, 'NotoSansHans-Regular.otf'), REGULAR) &&
    GlobalFonts.registerFromPath(path.join(fontDir, 'NotoSansHans-Bold.otf'), BOLD);
  if (!ok) throw new Error(`could not register the specimen fonts from ${fontDir}`);
  fontsReady = true;
}

export interface CardText {
  name: string;
  idNumber: string;
  sex?: string;
  nation?: string;
  birth?: [number, number, number];
  address?: string;
}

/**
 * The front of a resident identity card, laid out like the real one (labels in grey on the left,
 * values in black, the number at the bottom, a photo area on the right) at 856 × 540 (85.6 × 54 mm).
 */
export function idCardFront(t: CardText, format: 'png' | 'jpeg' = 'png'): Buffer {
  registerFonts();
  const W = 856;
  const H = 540;
  const c = createCanvas(W, H);
  const g = c.getContext('2d');
  const bg = g.createLinearGradient(0, 0, W, H);
  bg.addColorStop(0, '#eef3f6');
  bg.addColorStop(1, '#e3ebef');
  g.fillStyle = bg;
  g.fillRect(0, 0, W, H);
  const [y, m, d] = t.birth ?? [
    Number(t.idNumber.slice(6, 10)),
    Number(t.idNumber.slice(10, 12)),
    Number(t.idNumber.slice(12, 14)),
  ];
  g.fillStyle = '#7f8f9b';
  g.font = `26px "${REGULAR}"`;
  g.fillText('姓名', 60, 100);
  g.fillText('性别', 60, 170);
  g.fillText('民族', 230, 170);
  g.fillText('出生', 60, 240);
  g.fillText('住址', 60, 310);
  g.fillText('公民身份号码', 60, 470);
  g.fillStyle = '#111111';
  g.font = `34px "${BOLD}"`;
  g.fillText(t.name, 140, 102);
  g.font = `28px "${REGULAR}"`;
  g.fillText(t.sex ?? (Number(t.idNumber[16]) % 2 === 1 ? '男' : '女'), 140, 170);
  g.fillText(t.nation ?? '汉', 310, 170);
  g.fillText(`${y}   年  ${m}   月  ${d}   日`, 140, 240);
  g.fillText(t.address ?? '北京市东城区景山前街4号', 140, 310);
  g.font = `36px "${REGULAR}"`;
  g.fillText(t.idNumber, 260, 472);
  // The portrait area (left blank: the specimen carries no face).
  g.fillStyle = '#c9d3da';
  g.fillRect(600, 80, 200, 250);
  return format === 'png' ? c.toBuffer('image/png') : c.toBuffer('image/jpeg', 90);
}

function drawFaceAt(g: SKRSContext2D, cx: number, cy: number, w: number) {
  const rx = w / 2,
    ry = rx * 1.3;
  // shoulders + neck
  g.fillStyle = '#2f3e4e';
  g.beginPath();
  g.ellipse(cx, cy + ry * 1.9, rx * 2.0, ry * 0.75, 0, Math.PI, 2 * Math.PI);
  g.fill();
  const neck = g.createLinearGradient(cx - rx * 0.45, 0, cx + rx * 0.45, 0);
  neck.addColorStop(0, '#b9805e');
  neck.addColorStop(0.5, '#d8a27f');
  neck.addColorStop(1, '#b9805e');
  g.fillStyle = neck;
  g.fillRect(cx - rx * 0.45, cy + ry * 0.6, rx * 0.9, ry * 0.75);
  g.fillStyle = 'rgba(90,50,30,0.45)';
  g.beginPath();
  g.ellipse(cx, cy + ry * 0.85, rx * 0.5, ry * 0.12, 0, 0, 2 * Math.PI);
  g.fill();
  // hair back
  g.fillStyle = '#1f1510';
  g.beginPath();
  g.ellipse(cx, cy - ry * 0.12, rx * 1.1, ry * 1.08, 0, 0, 2 * Math.PI);
  g.fill();
  // ears
  for (const s of [-1, 1]) {
    g.fillStyle = '#c98e6b';
    g.beginPath();
    g.ellipse(cx + s * rx * 0.97, cy + ry * 0.02, rx * 0.13, ry * 0.17, 0, 0, 2 * Math.PI);
    g.fill();
  }
  // face: egg shape
  const skin = g.createRadialGradient(cx - rx * 0.15, cy - ry * 0.15, rx * 0.1, cx, cy + ry * 0.1, rx * 1.25);
  skin.addColorStop(0, '#f6d0b1');
  skin.addColorStop(0.6, '#e2ad8a');
  skin.addColorStop(1, '#b57a58');
  g.fillStyle = skin;
  g.beginPath();
  g.moveTo(cx, cy - ry);
  g.bezierCurveTo(cx + rx * 0.95, cy - ry, cx + rx * 1.02, cy - ry * 0.1, cx + rx * 0.92, cy + ry * 0.25);
  g.bezierCurveTo(cx + rx * 0.8, cy + ry * 0.75, cx + rx * 0.35, cy + ry * 1.0, cx, cy + ry * 1.0);
  g.bezierCurveTo(
    cx - rx * 0.35,
    cy + ry * 1.0,
    cx - rx * 0.8,
    cy + ry * 0.75,
    cx - rx * 0.92,
    cy + ry * 0.25,
  );
  g.bezierCurveTo(cx - rx * 1.02, cy - ry * 0.1, cx - rx * 0.95, cy - ry, cx, cy - ry);
  g.fill();
  // fringe
  g.fillStyle = '#1f1510';
  g.beginPath();
  g.moveTo(cx - rx * 1.0, cy - ry * 0.35);
  g.quadraticCurveTo(cx - rx * 0.9, cy - ry * 1.1, cx, cy - ry * 1.05);
  g.quadraticCurveTo(cx + rx * 0.9, cy - ry * 1.1, cx + rx * 1.0, cy - ry * 0.35);
  g.quadraticCurveTo(cx + rx * 0.4, cy - ry * 0.75, cx - rx * 1.0, cy - ry * 0.35);
  g.fill();
  // eye sockets shading
  for (const s of [-1, 1]) {
    const ex = cx + s * rx * 0.36,
      ey = cy - ry * 0.12;
    const sh = g.createRadialGradient(ex, ey, 0, ex, ey, rx * 0.32);
    sh.addColorStop(0, 'rgba(120,70,50,0.35)');
    sh.addColorStop(1, 'rgba(120,70,50,0)');
    g.fillStyle = sh;
    g.beginPath();
    g.arc(ex, ey, rx * 0.32, 0, 2 * Math.PI);
    g.fill();
  }
  // brows
  g.strokeStyle = '#24170f';
  g.lineWidth = ry * 0.05;
  g.lineCap = 'round';
  for (const s of [-1, 1]) {
    g.beginPath();
    g.moveTo(cx + s * rx * 0.13, cy - ry * 0.3);
    g.quadraticCurveTo(cx + s * rx * 0.38, cy - ry * 0.4, cx + s * rx * 0.62, cy - ry * 0.3);
    g.stroke();
  }
  // eyes
  for (const s of [-1, 1]) {
    const ex = cx + s * rx * 0.36,
      ey = cy - ry * 0.12;
    g.fillStyle = '#f3eee8';
    g.beginPath();
    g.ellipse(ex, ey, rx * 0.16, ry * 0.06, 0, 0, 2 * Math.PI);
    g.fill();
    g.fillStyle = '#3a2416';
    g.beginPath();
    g.arc(ex, ey, ry * 0.055, 0, 2 * Math.PI);
    g.fill();
    g.fillStyle = '#050505';
    g.beginPath();
    g.arc(ex, ey, ry * 0.025, 0, 2 * Math.PI);
    g.fill();
    g.fillStyle = '#ffffff';
    g.beginPath();
    g.arc(ex + ry * 0.015, ey - ry * 0.015, ry * 0.01, 0, 2 * Math.PI);
    g.fill();
    g.strokeStyle = '#1a0f0a';
    g.lineWidth = ry * 0.018;
    g.beginPath();
    g.ellipse(ex, ey, rx * 0.16, ry * 0.06, 0, Math.PI * 1.05, Math.PI * 1.95);
    g.stroke();
  }
  // nose: side shading, tip, nostrils
  const nose = g.createLinearGradient(cx - rx * 0.15, 0, cx + rx * 0.15, 0);
  nose.addColorStop(0, 'rgba(140,85,60,0.45)');
  nose.addColorStop(0.5, 'rgba(255,225,200,0.25)');
  nose.addColorStop(1, 'rgba(140,85,60,0.25)');
  g.fillStyle = nose;
  g.beginPath();
  g.moveTo(cx - rx * 0.06, cy - ry * 0.12);
  g.lineTo(cx - rx * 0.16, cy + ry * 0.2);
  g.lineTo(cx + rx * 0.16, cy + ry * 0.2);
  g.lineTo(cx + rx * 0.06, cy - ry * 0.12);
  g.fill();
  g.fillStyle = 'rgba(70,35,25,0.8)';
  for (const s of [-1, 1]) {
    g.beginPath();
    g.ellipse(cx + s * rx * 0.075, cy + ry * 0.22, rx * 0.045, ry * 0.02, 0, 0, 2 * Math.PI);
    g.fill();
  }
  // mouth
  g.fillStyle = '#a4473f';
  g.beginPath();
  g.moveTo(cx - rx * 0.28, cy + ry * 0.45);
  g.quadraticCurveTo(cx - rx * 0.1, cy + ry * 0.38, cx, cy + ry * 0.41);
  g.quadraticCurveTo(cx + rx * 0.1, cy + ry * 0.38, cx + rx * 0.28, cy + ry * 0.45);
  g.lineTo(cx - rx * 0.28, cy + ry * 0.45);
  g.fill();
  g.fillStyle = '#c0645b';
  g.beginPath();
  g.moveTo(cx - rx * 0.28, cy + ry * 0.45);
  g.quadraticCurveTo(cx, cy + ry * 0.58, cx + rx * 0.28, cy + ry * 0.45);
  g.fill();
  g.strokeStyle = '#5a201c';
  g.lineWidth = ry * 0.012;
  g.beginPath();
  g.moveTo(cx - rx * 0.28, cy + ry * 0.45);
  g.quadraticCurveTo(cx, cy + ry * 0.47, cx + rx * 0.28, cy + ry * 0.45);
  g.stroke();
}
function wall(g: SKRSContext2D, W: number, H: number) {
  const bg = g.createLinearGradient(0, 0, 0, H);
  bg.addColorStop(0, '#c8d4dc');
  bg.addColorStop(1, '#8fa3b0');
  g.fillStyle = bg;
  g.fillRect(0, 0, W, H);
}

/**
 * A drawn portrait, softened like a camera picture (the face detector takes it for a face; no real
 * person is pictured). `scale` is the face's width as a share of the picture's width; two faces
 * side by side with `faces: 2`.
 */
export async function drawnSelfie(
  opts: { width?: number; height?: number; scale?: number; faces?: 1 | 2 } = {},
): Promise<Buffer> {
  const W = opts.width ?? 480;
  const H = opts.height ?? 640;
  const c = createCanvas(W, H);
  const g = c.getContext('2d');
  wall(g, W, H);
  const w = W * (opts.scale ?? 0.48);
  if ((opts.faces ?? 1) === 2) {
    drawFaceAt(g, W * 0.28, H * 0.42, w);
    drawFaceAt(g, W * 0.72, H * 0.42, w);
  } else {
    drawFaceAt(g, W / 2, H * 0.42, w);
  }
  return sharp(c.toBuffer('image/png')).blur(0.6).jpeg({ quality: 88 }).toBuffer();
}

/** A landscape with texture (sky, sun, hills, trees, grass noise) and no face. */
export function landscape(width = 640, height = 480): Buffer {
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  const sky = g.createLinearGradient(0, 0, 0, height * 0.6);
  sky.addColorStop(0, '#5b8fd6');
  sky.addColorStop(1, '#cfe3f5');
  g.fillStyle = sky;
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#ffd75e';
  g.beginPath();
  g.arc(width * 0.8, height * 0.18, height * 0.08, 0, 2 * Math.PI);
  g.fill();
  g.fillStyle = '#5f8f4e';
  g.beginPath();
  g.moveTo(0, height * 0.6);
  for (let x = 0; x <= width; x += 20) g.lineTo(x, height * 0.55 + Math.sin(x / 70) * height * 0.06);
  g.lineTo(width, height);
  g.lineTo(0, height);
  g.fill();
  let seed = 7;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < 9; i++) {
    const x = rnd() * width;
    const y = height * (0.55 + rnd() * 0.3);
    g.fillStyle = '#6b4a2b';
    g.fillRect(x - 4, y - 10, 8, 40);
    g.fillStyle = `rgb(${(40 + rnd() * 40) | 0},${(100 + rnd() * 60) | 0},${(40 + rnd() * 30) | 0})`;
    g.beginPath();
    g.moveTo(x, y - 70);
    g.lineTo(x - 30, y);
    g.lineTo(x + 30, y);
    g.fill();
  }
  const img = g.getImageData(0, 0, width, height);
  for (let i = 0; i < img.data.length; i += 4) {
    const n = (rnd() - 0.5) * 24;
    img.data[i] = Math.max(0, Math.min(255, img.data[i]! + n));
    img.data[i + 1] = Math.max(0, Math.min(255, img.data[i + 1]! + n));
    img.data[i + 2] = Math.max(0, Math.min(255, img.data[i + 2]! + n));
  }
  g.putImageData(img, 0, 0);
  return c.toBuffer('image/jpeg', 90);
}

/** One colour all over. */
export function blank(width = 480, height = 640, colour = '#f2f2f2'): Buffer {
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  g.fillStyle = colour;
  g.fillRect(0, 0, width, height);
  return c.toBuffer('image/jpeg', 90);
}
