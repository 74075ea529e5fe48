import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';

/** What a person needs in the first minute after `npm start`. */
export interface StartFacts {
  /** Where the web app answers. */
  url: string;
  /** The `admin` account when this start created it; its password only when generated. */
  createdAdmin?: { username: string; password?: string };
  /** The demo student when this start seeded it (its password is generated, so known only now). */
  demo?: { username: string; password: string; lectures: number; courseName: string };
}

/** `http(s)://host:port` as a browser on this machine reaches it (https with TLS_CERT/TLS_KEY). */
export function appUrl(address: Pick<AddressInfo, 'address' | 'port'>, tls: boolean): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? 'localhost' : address.address;
  return `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\]|::ffff:127\.\d+\.\d+\.\d+)$/i;

/**
 * The one warning a plain-HTTP server reachable from other machines logs at start. Browsers then get
 * a session cookie without `Secure`, which anyone on the network can read. Behind a proxy
 * (TRUST_PROXY) the cookie follows the proxy's X-Forwarded-Proto, so the proxy's TLS is trusted.
 */
export function plainHttpWarning(config: Pick<Config, 'host' | 'tls' | 'trustProxy'>): string | undefined {
  if (config.tls || config.trustProxy || LOOPBACK.test(config.host)) return undefined;
  return `HOST=${config.host} serves plain HTTP to the network: sign-in works, but session cookies cross it unencrypted. Production needs TLS: set TLS_CERT and TLS_KEY, or put a TLS proxy in front with TRUST_PROXY=1 (README, "Security notes")`;
}

function hours(config: Pick<Config, 'openHours' | 'openTimeZone'>): string {
  if (config.openHours === 'always') return 'students are let in at any hour (OPEN_HOURS=always)';
  const [from, to] = config.openHours.map((h) => `${String(h).padStart(2, '0')}:00`);
  return `students are let in ${from}–${to} ${config.openTimeZone}; OPEN_HOURS=always opens all day`;
}

/** A PostgreSQL URL without its password. */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'PostgreSQL';
  }
}

/** Where this process keeps its data: database (a folder, `memory://` or a URL), media, and mail (a folder or an SMTP host). */
export function dataLocations(config: Pick<Config, 'dataDir' | 'databaseUrl' | 'smtpUrl'>) {
  return {
    database:
      config.databaseUrl === undefined ? path.join(config.dataDir, 'db') : safeUrl(config.databaseUrl),
    media: path.join(config.dataDir, 'media'),
    mail: config.smtpUrl ? `smtp://${new URL(config.smtpUrl).host}` : path.join(config.dataDir, 'outbox'),
  };
}

/** The lines of the first screen a terminal shows after start. */
export function firstScreenLines(config: Readonly<Config>, facts: StartFacts): string[] {
  const { url, createdAdmin: admin, demo } = facts;
  const pad = (label: string) => `${label.padEnd(15)} `;
  const more = pad('');
  const data = dataLocations(config);
  const lines = [`${config.productName} is ready at ${url}`, ''];
  lines.push(`${pad('Admin sign-in')}${url}/adminlogin`);
  if (admin?.password)
    lines.push(`${more}${admin.username} / ${admin.password}   (generated: shown only this once)`);
  else if (admin) lines.push(`${more}${admin.username}, password from ADMIN_PASSWORD`);
  else lines.push(`${more}the admin password was shown at the first start`);
  if (demo) {
    lines.push(`${pad('Demo student')}${url}/`);
    lines.push(
      `${more}${demo.username} / ${demo.password}   (first sign-in asks for a code: see the outbox)`,
    );
    if (demo.lectures)
      lines.push(`${more}${demo.lectures} sample lectures in the course "${demo.courseName}"`);
  }
  const engine = !config.databaseUrl
    ? '  (embedded PostgreSQL)'
    : config.databaseUrl === 'memory://'
      ? '  (in memory: gone when it stops)'
      : '';
  lines.push(`${pad('Data')}database  ${data.database}${engine}`);
  lines.push(`${more}media     ${data.media}`);
  if (config.smtpUrl) lines.push(`${more}mail      sent through ${data.mail}`);
  else lines.push(`${more}outbox    ${data.mail}  (mail as .eml files until SMTP_URL is set)`);
  lines.push(`${pad('Opening hours')}${hours(config)}`);
  lines.push('', `Ctrl+C stops ${config.productName}. Every setting: .env.example. Log lines follow.`);
  return lines;
}

/**
 * Shows the first screen: a framed block on a terminal (pretty logs), or one JSON line on stdout
 * for a collector. Generated passwords are never logged: in JSON mode they go to stderr, once.
 */
export function showFirstScreen(
  config: Readonly<Config>,
  logger: FastifyBaseLogger,
  facts: StartFacts,
): void {
  writeFirstScreen(config, logger, facts);
  const warning = plainHttpWarning(config);
  if (warning) logger.warn(warning);
}

function writeFirstScreen(config: Readonly<Config>, logger: FastifyBaseLogger, facts: StartFacts): void {
  if (config.logFormat === 'pretty') {
    const lines = firstScreenLines(config, facts);
    const width = Math.max(...lines.map((l) => l.length)) + 2;
    const rule = '─'.repeat(Math.min(width, process.stdout.columns || 80));
    const body = lines.map((line) => (line ? `  ${line}` : '')).join('\n');
    process.stdout.write(`\n${rule}\n${body}\n${rule}\n\n`);
    return;
  }
  const data = dataLocations(config);
  logger.info(
    {
      url: facts.url,
      adminLogin: `${facts.url}/adminlogin`,
      adminCreated: facts.createdAdmin?.username,
      demoStudent: facts.demo?.username,
      ...data,
    },
    `${config.productName} is ready`,
  );
  const secrets: string[] = [];
  if (facts.createdAdmin?.password)
    secrets.push(
      `Admin account created: ${facts.createdAdmin.username} / ${facts.createdAdmin.password}  (shown once)`,
    );
  if (facts.demo) secrets.push(`Demo student: ${facts.demo.username} / ${facts.demo.password}`);
  if (secrets.length) process.stderr.write(`${secrets.join('\n')}\n`);
}
