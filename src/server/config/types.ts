/** What the rest of the server gets of the settings: `Config` and its parts, and the error of a bad one. */
import type { OpenHours } from '../../contract/opening-hours';

/** The bucket settings, when a bucket is configured (MEDIA_STORE=s3, or a move to or from one). */
export interface S3Config {
  /** Unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** The PEM certificate chain and private key Lectern serves HTTPS with (read from TLS_CERT / TLS_KEY). */
export interface TlsConfig {
  cert: string;
  key: string;
}

/** Where backups go and how the signing key is protected in them (src/server/backup). */
export interface BackupConfig {
  /** A folder (default DATA_DIR/backups) or `s3://bucket/prefix`. */
  target: string;
  /** Encrypts SIGNING_KEY into each backup (AES-256-GCM); unset: the key stays out and a restore asks for it. */
  passphrase: string | undefined;
  /** The credentials for `s3://` targets: BACKUP_S3_*, each defaulting to its S3_* setting. */
  s3: Readonly<Omit<S3Config, 'bucket'>> | undefined;
}

export type { OpenHours } from '../../contract/opening-hours';

/** Fastify's trustProxy: `false`, the number of proxy hops in front, or the proxies' addresses and CIDRs. */
export type TrustProxy = false | number | string[];

/** When the daily backup starts, in the school's time zone (OPEN_TZ); `off`: only on demand. */
export type BackupSchedule = 'off' | { hour: number; minute: number };

export interface Config {
  port: number;
  host: string;
  /** The origin people open (PUBLIC_URL, else from HOST and PORT): passkeys are bound to its host name. */
  publicUrl: string;
  dataDir: string;
  /** `undefined` means embedded PGlite persisted in `dataDir/db`. */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  openHours: OpenHours;
  openTimeZone: string;
  productName: string;
  signingKey: string | undefined;
  ffmpegPath: string;
  ffprobePath: string;
  maxUploadBytes: number;
  maxStudentSessions: number;
  /** How long playback sessions (the codes drawn on the player) are kept for leak tracing. */
  playbackSessionDays: number;
  redisUrl: string | undefined;
  adminPassword: string | undefined;
  /** The first admin's name, set at the first start (a name an attacker need not guess is one factor less given away). */
  adminUsername: string;
  /** `required`: an admin without a second factor sets one up right after the password; `optional`: may skip. */
  adminMfa: 'required' | 'optional';
  /** An admin session ends after this many minutes without a request (and 12 h after sign-in in any case). */
  adminIdleMinutes: number;
  /** Who serves segment bytes: `node` (Lectern), `nginx` (secure_link, local store) or `s3` (presigned). */
  segmentDelivery: 'node' | 'nginx' | 's3';
  /** `s3` mode: a CDN in front of the bucket; segment URLs go there instead of presigned bucket URLs. */
  segmentBaseUrl: string | undefined;
  /** Seconds of media per AES-128 key: a revoked viewer stops within this plus the player's buffer. */
  keyRotationSeconds: number;
  /** Forensic A/B marks (docs/FORENSIC.md): the ladder writes every segment twice, each session gets its own sequence. */
  forensicMarks: boolean;
  /** Search (issue 29): text on screen read by Tesseract in these languages (`eng+hin`), or off. */
  searchOcr: boolean;
  ocrLangs: string;
  tesseractPath: string;
  /** A program reading a 16 kHz mono WAV (its path, the first argument) and writing WebVTT (the second); unset: off. */
  speechCommand: string | undefined;
  /** The longest one run of SPEECH_COMMAND may take; unset: 3x the video's length, at least 60 s. */
  speechTimeoutSeconds: number | undefined;
  /** HTTP processes sharing PORT (node:cluster); more than 1 needs PostgreSQL. */
  webConcurrency: number;
  role: 'all' | 'web' | 'worker';
  /** Demo course, student and sample lectures on first start; on by default only for the embedded database. */
  seedDemo: boolean;
  /** Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (client address, Secure cookie). */
  trustProxy: TrustProxy;
  logLevel: string;
  /** Where new media goes: `local` (DATA_DIR/media) or `s3` (the bucket below). */
  mediaStore: 'local' | 's3';
  /** Set when S3_BUCKET is: required by MEDIA_STORE=s3, optional otherwise (media:migrate). */
  s3: Readonly<S3Config> | undefined;
  /** `pretty`: readable lines and a first screen for a person at a terminal; `json`: one JSON object a line. */
  logFormat: 'pretty' | 'json';
  /** Set by TLS_CERT and TLS_KEY: Lectern serves HTTPS itself (the session cookie is then Secure). */
  tls: Readonly<TlsConfig> | undefined;
  /** After SIGTERM: seconds `/readyz` answers 503 while new connections are still taken (the balancer notices). */
  shutdownDrainSeconds: number;
  /** After SIGTERM: seconds in-flight requests get to finish before their connections are cut (systemd's TimeoutStopSec). */
  shutdownTimeoutSeconds: number;
  /** Prometheus metrics (docs/OPERATIONS.md): on when either way to reach them is set. */
  metrics: Readonly<MetricsConfig>;
  /** Live classes (docs/LIVE.md). */
  live: Readonly<LiveConfig>;
  backupSchedule: BackupSchedule;
  /** Backups kept on the target; older ones are pruned after each successful backup. */
  backupKeep: number;
  backup: Readonly<BackupConfig>;
}

export interface LiveConfig {
  /** This node runs the SRT listeners of classes about to start and packages their streams (LIVE_INGEST). */
  ingest: boolean;
  /** The ports SRT listeners take, one per class not ended. */
  srtPorts: [from: number, to: number];
  /** The host name encoders reach (in the srt:// and rtmp:// addresses); the listeners bind to HOST. */
  ingestHost: string;
  /** The RTMP server address shown to staff (nginx with the rtmp module in front: docs/LIVE.md). */
  rtmpUrl: string;
  /**
   * Where the ingest node reads an RTMP encoder's stream once nginx accepted it: nginx's rtmp
   * application, the class's id as the stream name (LIVE_RTMP_PULL; live/rtmp.ts).
   */
  rtmpPull: string;
  /** LIVE_RTMP_URL is set: encoders are told to use RTMP, so nginx's rtmp listener must answer (/readyz, doctor). */
  rtmpConfigured: boolean;
  /** How long a dropped encoder may take to reconnect before the class's recording gets its end. */
  reconnectSeconds: number;
}

export interface MetricsConfig {
  /** GET /metrics on its own listener (no token there: keep the port private). */
  port: number | undefined;
  host: string;
  /** GET /metrics on the main port for `Authorization: Bearer <token>`. */
  token: string | undefined;
  enabled: boolean;
}

export class ConfigError extends Error {}
