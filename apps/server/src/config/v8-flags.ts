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

/**
 * `--heap-growing-percent=100` (ADR 053): after each mark-compact the old generation may grow to twice what
 * survived it before V8 marks again. V8 otherwise picks the factor from how fast the old generation grows
 * against how fast it marks; with the hot path promoting little (ADR 052) its next limit was ~1.35 × what
 * survived (88 MB after 66), and it begins marking a young generation's worth before the limit: under click
 * load the answering thread marked and compacted every 11–15 s, each time after 5–11 MB of growth. At 2 the
 * interval is minutes at the same load. V8 reads the flag whenever it sets the next limit, so setting it here at
 * run time works (unlike `--no-memory-reducer`, fixed when the heap is made). `--max-old-space-size` still
 * bounds the heap.
 */
v8.setFlagsFromString('--heap-growing-percent=100');
