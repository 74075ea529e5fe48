import type { StoreKind } from '../storage/media-store';

/** The streamer's job types, added to the queue's typed registry. */
declare module '../jobs/types' {
  interface JobPayloads {
    /** Makes a finalized upload playable: first rendition (remux when possible), poster, key. */
    'media.package': { videoId: string };
    /** Adds the lower rungs of the adaptive ladder to a playable video, in the background. */
    'media.ladder': { videoId: string };
    /** Removes a deleted video's objects from a store that was away when the delete came. */
    'media.delete': { videoId: string; store: StoreKind };
    /** Removes uploads abandoned for 24 h and media files whose video no longer exists. */
    'media.purge-uploads': Record<string, never>;
    /** Removes the single-key segments `media:rekey` replaced, once old playlists' links expired. */
    'media.rekey-cleanup': { videoId: string; keys: string[] };
  }
}

/** Packaging makes a video playable: it goes before everything else in the queue. */
export const PACKAGE_PRIORITY = 10;
export const LADDER_PRIORITY = 0;
export const PACKAGE_ATTEMPTS = 3;
export const LADDER_ATTEMPTS = 3;

/**
 * Runner lanes: the ladder is long (about real time per rung on two cores) and may use one slot at
 * most, so with the default concurrency of 2 a new upload's remux never waits behind it. Its ffmpeg
 * also runs at the lowest CPU priority, so a remux or the web server get the cores when they need them.
 */
export const MEDIA_TYPE_LIMITS = { 'media.ladder': 1 } as const;

export {};
