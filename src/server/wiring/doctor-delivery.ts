/** The doctor's lines about segment delivery: the nginx site and the bucket's CORS rules. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { oneLine } from '../health/readiness';
import { nginxSite } from '../media/delivery/nginx-config';
import { nginxLinkSecret } from '../media/delivery/segment-urls';
import { bucketCorsOrigins } from '../storage/bucket-cors';
import { createS3Client } from '../storage/s3-client';
import type { DoctorLine } from './doctor-line';

export interface DoctorOptions {
  /** SEGMENT_DELIVERY=nginx: the installed site to compare with `nginx:config`'s output. */
  nginxSite?: string;
  /** The `nginx:config` options the site was made with. */
  listen?: string;
  lectern?: string;
}

export function nginxLine(
  config: Readonly<Config>,
  key: Buffer | undefined,
  options: DoctorOptions,
): DoctorLine | undefined {
  if (config.segmentDelivery !== 'nginx') return undefined;
  const file = options.nginxSite ?? '/etc/nginx/sites-enabled/lectern';
  const regenerate = `npm run cli -- nginx:config --listen ${options.listen ?? '80'} --lectern ${options.lectern ?? `${config.host}:${config.port}`} > ${file}, then nginx -s reload`;
  if (!existsSync(file))
    return {
      verdict: 'warn',
      name: 'nginx site',
      detail: `no site at ${file} (--nginx-site names another)`,
      fix: regenerate,
    };
  if (!key)
    return {
      verdict: 'warn',
      name: 'nginx site',
      detail: 'no signing key yet to compare with',
      fix: 'start Lectern once, then run the doctor again',
    };
  const expected = nginxSite({
    listen: options.listen ?? '80',
    lectern: options.lectern ?? `${config.host}:${config.port}`,
    videosDir: path.join(config.dataDir, 'media', 'videos'),
    secret: nginxLinkSecret(key),
  });
  const norm = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== '');
  const [want, have] = [norm(expected), norm(readFileSync(file, 'utf8'))];
  const at = want.findIndex((line, i) => have[i] !== line);
  if (at === -1 && want.length === have.length)
    return { verdict: 'ok', name: 'nginx site', detail: `${file} matches nginx:config` };
  // The site holds a secret: name the line, never print it.
  const secretLine = /secure_link|secret/.test(want[at] ?? have[at] ?? '');
  return {
    verdict: 'fail',
    name: 'nginx site',
    detail: `${file} differs from nginx:config at line ${at === -1 ? want.length + 1 : at + 1}${secretLine ? ' (the link secret: is SIGNING_KEY the same as when it was made?)' : ''}`,
    fix: regenerate,
  };
}

/**
 * SEGMENT_DELIVERY=s3 with the bucket itself serving segments: browsers fetch them from another
 * origin, which the bucket's CORS rules must allow (a CDN in front answers for itself).
 */
export async function bucketCorsLine(config: Readonly<Config>): Promise<DoctorLine | undefined> {
  if (config.segmentDelivery !== 's3' || config.segmentBaseUrl || !config.s3) return undefined;
  const fix = 'npm run cli -- media:cors (allows PUBLIC_URL; --origin names others)';
  const client = createS3Client(config.s3);
  try {
    const origins = await bucketCorsOrigins(client, config.s3.bucket);
    if (!origins.length)
      return { verdict: 'fail', name: 'bucket CORS', detail: 'no rule lets a browser GET segments', fix };
    return { verdict: 'ok', name: 'bucket CORS', detail: `GET allowed from ${origins.join(', ')}` };
  } catch (error) {
    return {
      verdict: 'warn',
      name: 'bucket CORS',
      detail: `could not read the rules: ${oneLine(error)}`,
      fix,
    };
  } finally {
    client.destroy();
  }
}
