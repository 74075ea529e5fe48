import { randomBytes } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  ListMultipartUploadsCommand,
  AbortMultipartUploadCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { loadConfig } from '../../src/server/config';
import { createS3Client, S3Store } from '../../src/server/storage/s3-store';
import { Scratch } from '../../src/server/storage/scratch';
import { tmpdir } from 'node:os';

export type StoreName = 'local' | 's3';

/**
 * The media stores tests run on: the local folder always, an S3 bucket when S3_ENDPOINT is set (the
 * real server of ../shared/tools/s3-server; CI starts it and must not skip it).
 */
export function testStores(): StoreName[] {
  if (process.env.CI && !process.env.S3_ENDPOINT) {
    throw new Error('CI runs the media tests on S3 too: eval "$(../shared/tools/s3-server/start)" first');
  }
  return process.env.S3_ENDPOINT ? ['local', 's3'] : ['local'];
}

/** Every (engine, store) pair a media suite runs on. */
export function mediaMatrix(engines: ('pglite' | 'postgres')[]): ['pglite' | 'postgres', StoreName][] {
  return engines.flatMap((engine) =>
    testStores().map((store) => [engine, store] as [typeof engine, StoreName]),
  );
}

/** The bucket settings of the test S3 server, for `bucket`. */
export function s3Env(bucket: string): Record<string, string> {
  const env = process.env;
  if (!env.S3_ENDPOINT) throw new Error('S3_ENDPOINT is not set (start ../shared/tools/s3-server)');
  return {
    S3_ENDPOINT: env.S3_ENDPOINT,
    S3_REGION: env.S3_REGION ?? 'us-east-1',
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID ?? 'lectern',
    S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY ?? 'lectern-secret',
    S3_FORCE_PATH_STYLE: env.S3_FORCE_PATH_STYLE ?? 'true',
  };
}

export interface TestBucket {
  name: string;
  /** MEDIA_STORE=s3 and the S3_* settings of this bucket. */
  env: Record<string, string>;
  client: S3Client;
  /** The store over this bucket, to look at what the app wrote. */
  store: S3Store;
  /** Empties the bucket (objects and multipart uploads) and deletes it. */
  drop(): Promise<void>;
}

/** A fresh bucket of its own for one test server, so tests never see each other's objects. */
export async function createTestBucket(): Promise<TestBucket> {
  const name = `lectern-t-${randomBytes(6).toString('hex')}`;
  const env = { MEDIA_STORE: 's3', ...s3Env(name) };
  const config = loadConfig(env);
  const client = createS3Client(config.s3!);
  await client.send(new CreateBucketCommand({ Bucket: name }));
  const store = new S3Store(client, config.s3!, new Scratch(tmpdir()), config.maxUploadBytes);
  return {
    name,
    env,
    client,
    store,
    async drop() {
      try {
        const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: name }));
        for (const u of uploads.Uploads ?? [])
          await client.send(
            new AbortMultipartUploadCommand({ Bucket: name, Key: u.Key, UploadId: u.UploadId }),
          );
        await store.deletePrefix('');
        await client.send(new DeleteBucketCommand({ Bucket: name }));
      } finally {
        client.destroy();
      }
    },
  };
}
