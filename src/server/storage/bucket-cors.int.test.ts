import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWhenReady } from '../../../test/support/preconditions';
import { createTestBucket, testStores, type TestBucket } from '../../../test/support/stores';
import { TestServer } from '../../../test/support/test-server';
import { bucketCorsOrigins, bucketOrigins, setBucketCors } from './bucket-cors';

/**
 * SEGMENT_DELIVERY=s3 in a browser: the page's CSP must let hls.js fetch from the bucket, and the
 * bucket's CORS rule (media:cors) must let the site's origin read what it fetches. Against the real
 * S3 server: the preflight and the GET a browser makes, with its Origin header.
 */
const SITE = 'https://lectern.school.test';

describeWhenReady(
  'SEGMENT_DELIVERY=s3 in a browser (CSP and bucket CORS)',
  testStores().includes('s3') ? undefined : 'S3_ENDPOINT is not set (start ../shared/tools/s3-server)',
  () => {
    let bucket: TestBucket;
    let server: TestServer;
    beforeAll(async () => {
      bucket = await createTestBucket();
      server = await TestServer.start({ engine: 'pglite', env: { ...bucket.env, SEGMENT_DELIVERY: 's3' } });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await bucket?.drop();
    });

    it("names the bucket's origin in the page's connect-src and media-src", async () => {
      const page = await fetch(`${server.url}/`);
      const csp = page.headers.get('content-security-policy')!;
      const origin = new URL(process.env.S3_ENDPOINT!).origin;
      expect(bucketOrigins(server.ctx.config.s3!)).toEqual([origin]);
      expect(csp).toMatch(new RegExp(`connect-src 'self' ${origin.replace(/[.]/g, '\\.')}(;|$)`));
      expect(csp).toMatch(new RegExp(`media-src 'self' blob: ${origin.replace(/[.]/g, '\\.')}(;|$)`));
    });

    it('media:cors lets the site read segments from the bucket, and no other site', async () => {
      expect(await bucketCorsOrigins(bucket.client, bucket.name)).toEqual([]);
      await setBucketCors(bucket.client, bucket.name, [SITE]);
      expect(await bucketCorsOrigins(bucket.client, bucket.name)).toEqual([SITE]);

      const key = 'videos/v/v180/seg_00000.ts';
      await bucket.client.send(
        new PutObjectCommand({ Bucket: bucket.name, Key: key, Body: Buffer.alloc(188, 0x47) }),
      );
      const link = (await bucket.store.presignGet(key, 600, new Date()))!;
      const preflight = await fetch(link, {
        method: 'OPTIONS',
        headers: {
          origin: SITE,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'range',
        },
      });
      expect(preflight.status).toBe(200);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(SITE);
      const read = await fetch(link, { headers: { origin: SITE, range: 'bytes=0-187' } });
      expect([200, 206]).toContain(read.status);
      expect(read.headers.get('access-control-allow-origin')).toBe(SITE);
      const elsewhere = await fetch(link, { headers: { origin: 'https://evil.test' } });
      expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    });
  },
);
