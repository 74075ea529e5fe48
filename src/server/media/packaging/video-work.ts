import type { AppContext } from '../../context';

interface Work {
  controller: AbortController;
  done: Promise<void>;
}

/** Packaging work running in this process, per video, so a delete can stop it at once and wait. */
const registries = new WeakMap<AppContext, Map<string, Set<Work>>>();

function registry(ctx: AppContext): Map<string, Set<Work>> {
  let map = registries.get(ctx);
  if (!map) registries.set(ctx, (map = new Map()));
  return map;
}

export class VideoWorkCancelled extends Error {}

/**
 * Runs `work` for `videoId` with a signal aborted by the job's own signal (shutdown, job cancelled)
 * or by `cancelVideoWork` (the video is being deleted).
 */
export async function trackVideoWork<T>(
  ctx: AppContext,
  videoId: string,
  jobSignal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onJobAbort = () => controller.abort(jobSignal.reason);
  jobSignal.addEventListener('abort', onJobAbort, { once: true });
  if (jobSignal.aborted) onJobAbort();
  let finish!: () => void;
  const entry: Work = { controller, done: new Promise<void>((r) => (finish = r)) };
  const map = registry(ctx);
  const set = map.get(videoId) ?? new Set<Work>();
  set.add(entry);
  map.set(videoId, set);
  try {
    return await work(controller.signal);
  } finally {
    jobSignal.removeEventListener('abort', onJobAbort);
    set.delete(entry);
    if (set.size === 0) map.delete(videoId);
    finish();
  }
}

/** Aborts this process's packaging of `videoId` and waits until it has stopped writing files. */
export async function cancelVideoWork(ctx: AppContext, videoId: string): Promise<void> {
  const set = registry(ctx).get(videoId);
  if (!set) return;
  for (const work of set) work.controller.abort(new VideoWorkCancelled('video deleted'));
  await Promise.all([...set].map((w) => w.done));
}
