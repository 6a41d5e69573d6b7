import v8 from 'node:v8';

/**
 * V8 settings of the API process, set before any other module is loaded (main.ts imports this first; ADR 051).
 *
 * `--no-allocation-site-pretenuring`: V8 otherwise watches each place in the code that allocates objects and,
 * once most of a place's objects have outlived a young-generation collection, allocates the place's objects in
 * the old generation from then on. On the click report that happened to the objects of the request body's
 * validation (zod's parse): every answer then left ~330 bytes of garbage in the old generation (measured with
 * the sampling heap profiler, objects collected by a minor GC left out), the old generation grew by ~10 MB/s at
 * 25 000 clicks/s, and its mark-compacts, with the slow turns around them, were the click report's longest
 * answers. Without it the old generation stays flat under the same load.
 */
v8.setFlagsFromString('--no-allocation-site-pretenuring');
