import { setChunkFailureReporter } from '@/lib/chunk-load';
import { postItems, tagged } from './config';

/**
 * Chunk loading (lib/chunk-load.ts: retry without a network, reload once after a deploy) reports each
 * failed chunk as CHUNK_ERROR (spec §9). This file is in the entry: a failed chunk is reported without
 * loading another one.
 */
setChunkFailureReporter(() => postItems([tagged('CHUNK_ERROR', 1)]));

export {
  type ChunkGuardDeps,
  chunkFailureAction,
  claimReload,
  loadChunk,
  RELOAD_GUARD_KEY,
  retryDelayMs,
  shouldNotify,
} from '@/lib/chunk-load';
