import type { Config } from '../config';
import { ConfigError } from '../config';
import { LocalStore } from './local-store';
import { StoreUnavailableError, type MediaStore, type StoreKind } from './media-store';
import { checkBucket, createS3Client, S3Store } from './s3-store';
import { scratchOf, type Scratch } from './scratch';

export * from './media-store';

declare module '../context' {
  interface AppContext {
    /** Where media lives: the local folder, and the S3 bucket when one is configured. */
    media: MediaStores;
  }
}

/** The stores of this process: the local one always, the bucket when S3_BUCKET is set. */
export interface MediaStores {
  /** Where new uploads, videos and thumbnails go (MEDIA_STORE). */
  readonly current: MediaStore;
  readonly local: LocalStore;
  readonly s3: S3Store | undefined;
  readonly scratch: Scratch;
  /** The store of a video or upload, by the kind its row records. */
  of(kind: StoreKind): MediaStore;
  close(): void;
}

/** Builds the stores from the configuration (no network: see `checkMediaStores`). */
export function createMediaStores(config: Readonly<Config>): MediaStores {
  const scratch = scratchOf(config.dataDir);
  const local = new LocalStore(config.dataDir, config.maxUploadBytes);
  const s3 = config.s3
    ? new S3Store(createS3Client(config.s3), config.s3, scratch, config.maxUploadBytes)
    : undefined;
  const current = config.mediaStore === 's3' ? s3! : local;
  return {
    current,
    local,
    s3,
    scratch,
    of(kind) {
      if (kind === 'local') return local;
      // A video moved to a bucket whose settings were removed since: say so (and keep serving the rest).
      if (!s3) throw new StoreUnavailableError('a video lives in the S3 bucket, but S3_BUCKET is not set');
      return s3;
    },
    close() {
      s3?.client.destroy();
    },
  };
}

/** Refuses to start when the configured bucket is missing or refuses the credentials: one line naming the variable. */
export async function checkMediaStores(stores: MediaStores, config: Readonly<Config>): Promise<void> {
  if (!stores.s3 || !config.s3) return;
  const problem = await checkBucket(stores.s3.client, config.s3);
  if (problem) throw new ConfigError(problem);
}
