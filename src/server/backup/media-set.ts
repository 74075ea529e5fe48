import { mediaKeys, type MediaStore, type MediaStores, type StoredObject } from '../storage';
import type { Query } from './database';
import type { ExcludedUpload } from './types';

/** What the database snapshot points at in the stores. */
export interface MediaReferences {
  videos: { id: string; store: 'local' | 's3'; renditions: number[]; thumbnail: string | null }[];
  courseThumbnails: string[];
  uploads: ExcludedUpload[];
}

/** Read inside the snapshot, so the media copied are exactly what the dumped rows reference. */
export async function readReferences(query: Query): Promise<MediaReferences> {
  const videos = await query<{
    id: string;
    store: 'local' | 's3';
    renditions: number[];
    thumbnail: string | null;
  }>('select id, store, renditions, thumbnail from videos order by id');
  const courses = await query<{ thumbnail: string }>(
    'select distinct thumbnail from courses where thumbnail is not null order by thumbnail',
  );
  const uploads = await query<{ storage_name: string; label: string; offset: string | number }>(
    'select storage_name, label, "offset" from uploads order by created_at',
  );
  return {
    videos,
    courseThumbnails: courses.map((c) => c.thumbnail),
    uploads: uploads.map((u) => ({ storageName: u.storage_name, label: u.label, bytes: Number(u.offset) })),
  };
}

/** One object to back up, as the store lists it now. */
export interface SourceObject {
  store: MediaStore;
  object: StoredObject;
}

/** What tells a later backup that an object has not changed since. */
export const stampOf = ({ store, object }: SourceObject) =>
  `${object.size}:${store.kind === 's3' ? object.etag : object.modifiedAt.getTime()}`;

/**
 * The objects the references name: each video's poster and complete renditions (a rendition still
 * being packaged is not in `renditions` and stays out), its source while it is kept, and the
 * thumbnails. Missing ones are skipped (the database keeps working without them too). Each store's
 * `videos/`, `sources/` and `thumbnails/` are listed once, not once per video: on a bucket a LIST is a round trip,
 * and a school's backup with nothing changed is mostly listing.
 */
export async function resolveObjects(stores: MediaStores, refs: MediaReferences): Promise<SourceObject[]> {
  const out: SourceObject[] = [];
  const listings = new Map<string, Map<string, StoredObject[]>>();
  /** The store's objects below `prefix`, grouped by the path segment after it (a video id, a file). */
  const listed = async (store: MediaStore, prefix: 'videos/' | 'sources/' | 'thumbnails/') => {
    let found = listings.get(`${store.kind}:${prefix}`);
    if (!found) {
      found = new Map();
      for (const object of await store.list(prefix)) {
        const id = object.key.slice(prefix.length).split('/')[0]!;
        const group = found.get(id);
        if (group) group.push(object);
        else found.set(id, [object]);
      }
      listings.set(`${store.kind}:${prefix}`, found);
    }
    return found;
  };
  const thumbnails = new Set(refs.courseThumbnails);
  for (const video of refs.videos) {
    if (video.thumbnail) thumbnails.add(video.thumbnail);
    const store = stores.of(video.store);
    const complete = new Set(video.renditions.map((h) => mediaKeys.rendition(video.id, h)));
    for (const object of (await listed(store, 'videos/')).get(video.id) ?? []) {
      const folder = object.key.slice(0, object.key.lastIndexOf('/') + 1);
      if (object.key === mediaKeys.poster(video.id) || complete.has(folder)) out.push({ store, object });
    }
    const source = (await listed(store, 'sources/'))
      .get(video.id)
      ?.find((o) => o.key === mediaKeys.source(video.id));
    if (source) out.push({ store, object: source });
  }
  for (const file of [...thumbnails].sort()) {
    for (const store of new Set([stores.current, stores.local])) {
      const object = (await listed(store, 'thumbnails/'))
        .get(file.split('/')[0]!)
        ?.find((o) => o.key === mediaKeys.thumbnail(file));
      if (object) {
        out.push({ store, object });
        break;
      }
    }
  }
  return out;
}
