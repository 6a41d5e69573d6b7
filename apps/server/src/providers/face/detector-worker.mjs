// Face detection in a worker thread (plain JavaScript so it runs the same under tsx, vitest and node).
// SSD MobileNet v1 of @vladmandic/face-api (weights shipped in the npm package, MIT) on the
// TensorFlow.js WebAssembly backend (binaries shipped in @tensorflow/tfjs-backend-wasm): nothing is
// fetched. Inference blocks for ~0.5 s per image, so it stays off the API's event loop.
//
// face-api's node-wasm build asks for the `@tensorflow/tfjs` umbrella package, which brings layers,
// converter, data and WebGL (~220 MB installed) that face-api never calls: it needs tfjs-core's ops and
// weight decoding only. That one request is answered with @tensorflow/tfjs-core while face-api loads
// (ADR 030); the wasm backend registers with the same tfjs-core. The umbrella also installs the tensor
// methods (x.add(y), x.as3D(…)), which tfjs-core's node build leaves out: tensorMethods() does it.
//
// Protocol: the parent posts {id, width, height, data: Uint8Array RGB}; the worker answers
// {id, ok: true, faces: [{score, x, y, width, height}], ms} or {id, ok: false, error}.
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const minConfidence = workerData?.minConfidence ?? 0.5;

/**
 * Installs tfjs-core's chained tensor methods as the `@tensorflow/tfjs` package does. Their names are
 * read from tfjs-core's own public/chained_ops/ (ES modules with extensionless imports, which node
 * cannot load): `x.op(…args)` is `op(x, …args)` except for the methods below, written as tfjs-core
 * writes them. A name that is neither stops the start rather than failing on some later picture.
 */
function tensorMethods(tf, coreDir) {
  const reshape = (shape) =>
    function (...dims) {
      this.throwIfDisposed();
      return tf.reshape(this, shape ? shape(this, dims) : dims);
    };
  const cast = (dtype) =>
    function (given) {
      this.throwIfDisposed();
      return tf.cast(this, dtype ?? given);
    };
  const list = (x) => (x instanceof tf.Tensor ? [x] : x);
  const special = {
    as1D: reshape((t) => [t.size]),
    as2D: reshape(),
    as3D: reshape(),
    as4D: reshape(),
    as5D: reshape(),
    flatten: reshape((t) => [t.size]),
    reshapeAs: reshape((_t, [x]) => x.shape),
    asScalar: reshape((t) => {
      if (t.size !== 1) throw new Error('The array must have only 1 element.');
      return [];
    }),
    asType: cast(),
    toBool: cast('bool'),
    toFloat: cast('float32'),
    toInt: cast('int32'),
    concat(x, axis) {
      this.throwIfDisposed();
      return tf.concat([this, ...list(x)], axis);
    },
    stack(x, axis) {
      this.throwIfDisposed();
      return tf.stack([this, ...list(x)], axis);
    },
    where(condition, x) {
      this.throwIfDisposed();
      return tf.where(condition, this, x);
    },
    resizeBilinear(...args) {
      this.throwIfDisposed();
      return tf.image.resizeBilinear(this, ...args);
    },
    resizeNearestNeighbor(...args) {
      this.throwIfDisposed();
      return tf.image.resizeNearestNeighbor(this, ...args);
    },
  };
  const dir = path.join(coreDir, 'public', 'chained_ops');
  const proto = tf.Tensor.prototype;
  let count = 0;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const [, name] of source.matchAll(/getGlobalTensorClass\(\)\.prototype\.(\w+) =/g)) {
      const op = tf[name];
      if (special[name]) proto[name] = special[name];
      else if (typeof op === 'function') {
        proto[name] = function (...args) {
          this.throwIfDisposed();
          return op(this, ...args);
        };
      } else throw new Error(`tfjs-core tensor method ${name} has no op of that name`);
      count++;
    }
  }
  if (count < 100) throw new Error(`only ${count} tfjs-core tensor methods found in ${dir}`);
}

async function load() {
  // tfjs prints a hint about its native backend on import; this process has nothing to say.
  const { log, warn, info } = console;
  console.log = console.warn = console.info = () => {};
  const core = require.resolve('@tensorflow/tfjs-core');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return resolve.call(this, request === '@tensorflow/tfjs' ? core : request, ...rest);
  };
  let faceapi;
  let wasm;
  try {
    faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    wasm = require('@tensorflow/tfjs-backend-wasm');
  } finally {
    Module._resolveFilename = resolve;
    Object.assign(console, { log, warn, info });
  }
  const tf = require('@tensorflow/tfjs-core');
  if (faceapi.tf.engine() !== tf.engine()) {
    throw new Error('face-api and the wasm backend loaded two copies of @tensorflow/tfjs-core');
  }
  tensorMethods(tf, path.dirname(core));
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
