import type { ComponentType } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../contract/constants';

export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the application could not be loaded (chunk load failure).', { cause });
    this.name = 'ChunkLoadError';
  }
}

/** Races a dynamic import against the spec's 120000 ms load time-out; any failure becomes a ChunkLoadError. */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([load(), timeout])
    .catch((error: unknown) => {
      throw new ChunkLoadError(error);
    })
    .finally(() => clearTimeout(timer));
}

/** A React Router `lazy` for a module whose default export is the route's component. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return async () => ({ Component: (await loadChunk(load)).default });
}
