import { createHash } from 'node:crypto';
import type { Config } from '../../config';
import { mediaKeys, type MediaStore } from '../../storage';
import { bucketOrigins } from '../../storage/bucket-cors';
import { LINK_SECONDS, purposeKey, type PlaybackTokens } from './tokens';
import { videoFileUrl } from '../../videos/stream-urls';

/** What a child playlist's segment links are made for: one session watching one rendition. */
export interface LinkRequest {
  store: MediaStore;
  videoId: string;
  rendition: string;
  files: string[];
  /** The session cookie the links are bound to. */
  session: string;
  nowMs: number;
}

/**
 * Makes the segment URIs of a child playlist (SEGMENT_DELIVERY picks who serves the bytes). Every
 * link expires with the playlist; none needs Lectern's database to be checked.
 */
export interface SegmentUrls {
  uris(request: LinkRequest): Promise<string[]>;
}

/** `node`: Lectern's fast path serves `seg_N.ts?t=<token bound to video, file, session and expiry>`. */
export function nodeSegmentUrls(tokens: PlaybackTokens): SegmentUrls {
  return {
    async uris({ videoId, rendition, files, session, nowMs }) {
      const sign = tokens.signer(videoId, session, nowMs);
      return files.map((file) => `${file}?t=${sign(`${rendition}/${file}`)}`);
    },
  };
}

/** The secret nginx's `secure_link_md5` shares with Lectern (in the generated snippet only). */
export const nginxLinkSecret = (signingKey: Buffer) =>
  purposeKey(signingKey, 'lectern nginx secure link v1').toString('base64url');

/**
 * `nginx`: `seg_N.ts?e=<expiry>&s=<md5>` checked by nginx's secure_link against the same path, the
 * session cookie and a secret (docs/nginx-delivery.md); nginx sends the file with sendfile.
 */
export function nginxSegmentUrls(secret: string): SegmentUrls {
  return {
    async uris({ videoId, rendition, files, session, nowMs }) {
      const expiry = Math.floor(nowMs / 1000) + LINK_SECONDS;
      return files.map((file) => {
        const uri = videoFileUrl(videoId, rendition, file);
        const md5 = createHash('md5').update(`${expiry}${uri}${session} ${secret}`).digest('base64url');
        return `${file}?e=${expiry}&s=${md5}`;
      });
    },
  };
}

/**
 * `s3`: presigned GETs of the bucket's objects (expiring with the playlist), or the same path and
 * signature under SEGMENT_BASE_URL, a CDN in front of the bucket (docs/SCALING.md).
 */
export function s3SegmentUrls(baseUrl: string | undefined): SegmentUrls {
  return {
    async uris({ store, videoId, rendition, files, nowMs }) {
      return Promise.all(
        files.map(async (file) => {
          const url = await store.presignGet(
            mediaKeys.videoFile(videoId, rendition, file),
            LINK_SECONDS,
            new Date(nowMs),
          );
          if (!baseUrl) return url!;
          const signed = new URL(url!);
          return `${baseUrl}${signed.pathname}${signed.search}`;
        }),
      );
    },
  };
}

/** The links for each store kind under SEGMENT_DELIVERY; a store the mode cannot serve falls back to `node`. */
export function segmentUrlsFor(config: Readonly<Config>, tokens: PlaybackTokens, signingKey: Buffer) {
  const node = nodeSegmentUrls(tokens);
  const mode = config.segmentDelivery;
  return {
    local: mode === 'nginx' ? nginxSegmentUrls(nginxLinkSecret(signingKey)) : node,
    s3: mode === 's3' ? s3SegmentUrls(config.segmentBaseUrl) : node,
  } satisfies Record<MediaStore['kind'], SegmentUrls>;
}

/**
 * The origins a browser fetches segments from besides Lectern's own, which the page's CSP must name
 * (hls.js fetches them: connect-src): in `s3` mode the CDN of SEGMENT_BASE_URL, else the bucket.
 */
export function segmentOrigins(config: Pick<Config, 'segmentDelivery' | 'segmentBaseUrl' | 's3'>): string[] {
  if (config.segmentDelivery !== 's3') return [];
  if (config.segmentBaseUrl) return [new URL(config.segmentBaseUrl).origin];
  return config.s3 ? bucketOrigins(config.s3) : [];
}
