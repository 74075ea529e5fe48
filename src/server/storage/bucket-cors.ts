import { GetBucketCorsCommand, PutBucketCorsCommand, type S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { statusOf, type SdkError } from './s3-client';

/**
 * The origins a presigned link of the bucket may have: the endpoint itself (path style,
 * `host/bucket/key`), and unless path style is forced, the bucket's own host name
 * (`bucket.host/key`), which the SDK uses for DNS-safe bucket names.
 */
export function bucketOrigins(
  s3: Pick<S3Config, 'endpoint' | 'region' | 'bucket' | 'forcePathStyle'>,
): string[] {
  const endpoint = new URL(s3.endpoint ?? `https://s3.${s3.region}.amazonaws.com`);
  if (s3.forcePathStyle) return [endpoint.origin];
  return [`${endpoint.protocol}//${s3.bucket}.${endpoint.host}`, endpoint.origin];
}

/** What a browser's player needs of the bucket: GET and HEAD from the site, with Range, and the lengths it reads. */
export async function setBucketCors(client: S3Client, bucket: string, siteOrigins: string[]): Promise<void> {
  await client.send(
    new PutBucketCorsCommand({
      Bucket: bucket,
      CORSConfiguration: {
        CORSRules: [
          {
            AllowedMethods: ['GET', 'HEAD'],
            AllowedOrigins: siteOrigins,
            AllowedHeaders: ['Range'],
            ExposeHeaders: ['Content-Length', 'Content-Range', 'ETag'],
            MaxAgeSeconds: 3600,
          },
        ],
      },
    }),
  );
}

/** The site origins the bucket's CORS rules let GET its objects (`*` for any); none when it has no rules. */
export async function bucketCorsOrigins(client: S3Client, bucket: string): Promise<string[]> {
  try {
    const { CORSRules = [] } = await client.send(new GetBucketCorsCommand({ Bucket: bucket }));
    return CORSRules.filter((rule) => rule.AllowedMethods?.includes('GET')).flatMap(
      (rule) => rule.AllowedOrigins ?? [],
    );
  } catch (error) {
    if ((error as SdkError).name === 'NoSuchCORSConfiguration' || statusOf(error) === 404) return [];
    throw error;
  }
}
