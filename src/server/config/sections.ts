/** The parts of `Config` that several variables make together, each checked as a whole. */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import type { Settings } from './settings';
import { ConfigError, type BackupConfig, type LiveConfig, type S3Config, type TlsConfig } from './types';

/** Where a browser on this machine reaches the listening address (loopback and "every address" read as localhost). */
export function defaultPublicUrl(host: string, port: number, https: boolean): string {
  const local = ['127.0.0.1', '::1', '0.0.0.0', '::', 'localhost'].includes(host);
  const name = local ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  const scheme = https ? 'https' : 'http';
  const standard = (https && port === 443) || (!https && port === 80);
  return `${scheme}://${name}${standard ? '' : `:${port}`}`;
}

/** Live ingest: the encoders' host name is LIVE_INGEST_HOST, else PUBLIC_URL's, else HOST's. */
export function liveConfig(e: Settings): Readonly<LiveConfig> {
  const publicHost = new URL(e.PUBLIC_URL ?? defaultPublicUrl(e.HOST, e.PORT, false)).hostname;
  const ingestHost = e.LIVE_INGEST_HOST ?? publicHost;
  return Object.freeze({
    ingest: e.LIVE_INGEST === 'on',
    srtPorts: e.LIVE_SRT_PORTS,
    ingestHost,
    rtmpUrl: e.LIVE_RTMP_URL?.replace(/\/+$/, '') ?? `rtmp://${ingestHost}:1935/live`,
    rtmpPull: e.LIVE_RTMP_PULL.replace(/\/+$/, ''),
    rtmpConfigured: e.LIVE_RTMP_URL !== undefined,
    reconnectSeconds: e.LIVE_RECONNECT_SECONDS,
  });
}

/** Backups go to a folder or a bucket; a bucket target needs credentials (its own, or the media bucket's). */
export function backupConfig(e: Settings): Readonly<BackupConfig> {
  const target = e.BACKUP_TARGET ?? path.join(path.resolve(e.DATA_DIR), 'backups');
  const accessKeyId = e.BACKUP_S3_ACCESS_KEY_ID ?? e.S3_ACCESS_KEY_ID;
  const secretAccessKey = e.BACKUP_S3_SECRET_ACCESS_KEY ?? e.S3_SECRET_ACCESS_KEY;
  const s3 =
    accessKeyId && secretAccessKey
      ? Object.freeze({
          endpoint: e.BACKUP_S3_ENDPOINT ?? e.S3_ENDPOINT,
          region: e.BACKUP_S3_REGION ?? e.S3_REGION,
          accessKeyId,
          secretAccessKey,
          forcePathStyle: e.BACKUP_S3_FORCE_PATH_STYLE ?? e.S3_FORCE_PATH_STYLE,
        })
      : undefined;
  if (target.startsWith('s3://') && !s3)
    throw new ConfigError(
      `Missing BACKUP_S3_ACCESS_KEY_ID: BACKUP_TARGET=${target} needs credentials (BACKUP_S3_* or S3_*; see README, "Backups")`,
    );
  return Object.freeze({
    target: target.startsWith('s3://') ? target : path.resolve(target),
    passphrase: e.BACKUP_PASSPHRASE,
    s3,
  });
}

/** The bucket settings; a bucket needs its credentials, and MEDIA_STORE=s3 needs a bucket. */
export function s3Config(e: Settings, env: NodeJS.ProcessEnv): Readonly<S3Config> | undefined {
  const missing = (name: string, why: string) =>
    new ConfigError(`Missing ${name}: ${why} (see README, "Media in an S3 bucket")`);
  if (!e.S3_BUCKET) {
    if (e.MEDIA_STORE === 's3') throw missing('S3_BUCKET', 'MEDIA_STORE=s3 needs a bucket');
    if (e.SEGMENT_DELIVERY === 's3') throw missing('S3_BUCKET', 'SEGMENT_DELIVERY=s3 needs a bucket');
    return undefined;
  }
  if (!e.S3_ACCESS_KEY_ID)
    throw missing('S3_ACCESS_KEY_ID', `the credentials for S3_BUCKET=${env.S3_BUCKET}`);
  if (!e.S3_SECRET_ACCESS_KEY)
    throw missing('S3_SECRET_ACCESS_KEY', `the credentials for S3_BUCKET=${env.S3_BUCKET}`);
  return Object.freeze({
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    bucket: e.S3_BUCKET,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  });
}

/** Both files or neither; each must be readable PEM, and the key must belong to the certificate. */
export function tlsConfig(e: Settings): Readonly<TlsConfig> | undefined {
  if (!e.TLS_CERT && !e.TLS_KEY) return undefined;
  if (!e.TLS_CERT) throw new ConfigError('Missing TLS_CERT: TLS_KEY is set, and HTTPS needs both files');
  if (!e.TLS_KEY) throw new ConfigError('Missing TLS_KEY: TLS_CERT is set, and HTTPS needs both files');
  const read = (name: 'TLS_CERT' | 'TLS_KEY', file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`Invalid ${name}=${JSON.stringify(file)}: ${(error as Error).message}`);
    }
  };
  const tls = { cert: read('TLS_CERT', e.TLS_CERT), key: read('TLS_KEY', e.TLS_KEY) };
  const invalid = (name: 'TLS_CERT' | 'TLS_KEY', why: string) =>
    new ConfigError(`Invalid ${name}=${JSON.stringify(e[name])}: ${why}`);
  let certificate: X509Certificate;
  let key: KeyObject;
  try {
    certificate = new X509Certificate(tls.cert);
  } catch {
    throw invalid('TLS_CERT', 'expected a PEM certificate (-----BEGIN CERTIFICATE-----)');
  }
  try {
    key = createPrivateKey(tls.key);
  } catch {
    throw invalid('TLS_KEY', 'expected an unencrypted PEM private key (-----BEGIN PRIVATE KEY-----)');
  }
  if (!certificate.checkPrivateKey(key)) throw invalid('TLS_KEY', 'not the key of the TLS_CERT certificate');
  return Object.freeze(tls);
}
