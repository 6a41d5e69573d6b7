// Face detection in a worker thread (plain JavaScript so it runs the same under tsx, vitest and node).
// SSD MobileNet v1 of @vladmandic/face-api (weights shipped in the npm package, MIT) on the
// TensorFlow.js WebAssembly backend (binaries shipped in @tensorflow/tfjs-backend-wasm): nothing is
// fetched. Inference blocks for ~0.5 s per image, so it stays off the API's event loop.
//
// Protocol: the parent posts {id, width, height, data: Uint8Array RGB}; the worker answers
// {id, ok: true, faces: [{score, x, y, width, height}], ms} or {id, ok: false, error}.
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const minConfidence = workerData?.minConfidence ?? 0.5;

async function load() {
  // tfjs prints a hint about its native backend on import; this process has nothing to say.
  const { log, warn, info } = console;
  console.log = console.warn = console.info = () => {};
  let faceapi;
  let wasm;
  try {
    faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    wasm = require('@tensorflow/tfjs-backend-wasm');
  } finally {
    Object.assign(console, { log, warn, info });
  }
  const tf = faceapi.tf;
  // A directory path (not a URL): emscripten reads the .wasm files from disk.
  wasm.setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep);
  if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js wasm backend did not start');
  await tf.ready();
  const modelDir = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
  return { faceapi, tf };
}

const ready = load();
// Report a failed start at once rather than on the first request only.
ready.catch(() => {});

parentPort.on('message', async (msg) => {
  const started = performance.now();
  try {
    const { faceapi, tf } = await ready;
    const input = tf.tensor3d(msg.data, [msg.height, msg.width, 3], 'int32');
    try {
      const found = await faceapi.detectAllFaces(
        input,
        new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: 10 }),
      );
      const faces = found.map((d) => ({
        score: d.score,
        x: d.box.x,
        y: d.box.y,
        width: d.box.width,
        height: d.box.height,
      }));
      parentPort.postMessage({ id: msg.id, ok: true, faces, ms: performance.now() - started });
    } finally {
      input.dispose();
    }
  } catch (err) {
    parentPort.postMessage({ id: msg.id, ok: false, error: String(err?.message ?? err) });
  }
});
