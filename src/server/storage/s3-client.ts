import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { StoreUnavailableError } from './media-store';

export type SdkError = Error & { $metadata?: { httpStatusCode?: number }; Code?: string; code?: string };

export const statusOf = (error: unknown) => (error as SdkError).$metadata?.httpStatusCode;
export const isNotFound = (error: unknown) =>
  ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes((error as SdkError).name) || statusOf(error) === 404;

/**
 * Anything the bucket did not do for us becomes a 503 (unreachable, throttled, 5xx, refused
 * credentials): the request can be tried again later. The reason is logged, never shown.
 */
export function unavailable(error: unknown): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const e = error as SdkError;
  const status = statusOf(error);
  return new StoreUnavailableError(
    `${e.name ?? 'Error'}${status ? ` (HTTP ${status})` : ''}: ${e.message ?? String(error)}`.slice(0, 300),
  );
}

/** A failure another try may fix: no answer at all (network), throttling or a 5xx. */
export const isTransient = (error: unknown) => {
  const status = statusOf(error);
  return status === undefined || status === 429 || status >= 500;
};

/**
 * Runs `attempt` up to 3 times on transient failures. For requests whose body is a stream we can
 * open again (a scratch file, pieces in the bucket): the SDK cannot retry those itself, and a
 * kept-alive socket the server closed meanwhile fails the first try.
 */
export async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= 3 || isNotFound(error) || !isTransient(error)) throw error;
      await new Promise((r) => setTimeout(r, 100 * n));
    }
  }
}

/** The SDK client for a bucket: path-style where asked, no flexible checksums (RGW, MinIO and R2 differ on them). */
export function createS3Client(config: Readonly<S3Config>): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: 3_000,
      // Idle time on a socket (not the whole request): a segment or part that stops moving fails.
      requestTimeout: 30_000,
      // Every segment a viewer fetches through Node is one GET to the bucket: keep many sockets warm.
      // An idle socket is closed by us after 5 s (Node's own default agent does the same), well before
      // a server closes it (Ceph RGW after 65 s): a request sent on a socket the server was closing
      // at that moment failed, and an upload chunk streamed from the browser cannot be sent again
      // (a 503 to the admin's upload, seen in the scale-out test). Last used first, so the rest idle out.
      httpAgent: new HttpAgent({ keepAlive: true, maxSockets: 512, timeout: 5_000, scheduling: 'lifo' }),
      httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 512, timeout: 5_000, scheduling: 'lifo' }),
    },
  });
}

/** Checks at start that the bucket exists and takes these credentials; answers the problem in one line. */
export async function checkBucket(client: S3Client, config: Readonly<S3Config>): Promise<string | undefined> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: config.bucket }));
    return undefined;
  } catch (error) {
    const status = statusOf(error);
    if (status === 404)
      return `S3_BUCKET=${config.bucket}: no such bucket at ${config.endpoint ?? config.region}`;
    if (status === 403 || status === 401 || status === 400)
      return `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: the bucket ${config.bucket} refuses these credentials (HTTP ${status})`;
    const e = error as SdkError;
    return `S3_ENDPOINT=${config.endpoint ?? '(AWS)'}: the bucket ${config.bucket} cannot be reached (${e.code ?? e.name}: ${e.message})`;
  }
}
