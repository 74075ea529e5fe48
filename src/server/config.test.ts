import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('fills in the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      openHours: [10, 22],
      openTimeZone: 'Asia/Kolkata',
      productName: 'Lectern',
      maxUploadBytes: 10 * 1024 ** 3,
      maxStudentSessions: 2,
      seedDemo: true,
      role: 'all',
      shutdownDrainSeconds: 5,
      shutdownTimeoutSeconds: 30,
    });
    expect(config.adminUsername).toBe('admin');
    expect(config.dataDir).toMatch(/\/data$/);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    ['PORT', 'eighty', /^Invalid PORT="eighty": /],
    ['ADMIN_USERNAME', 'two words', /^Invalid ADMIN_USERNAME="two words": /],
    ['ADMIN_MFA', 'off', /^Invalid ADMIN_MFA="off": expected required .* or optional$/],
    ['ADMIN_IDLE_MINUTES', '0', /^Invalid ADMIN_IDLE_MINUTES="0": /],
    [
      'PUBLIC_URL',
      'lectern.school',
      /^Invalid PUBLIC_URL="lectern.school": expected the address people open/,
    ],
    [
      'PUBLIC_URL',
      'ftp://lectern.school',
      /^Invalid PUBLIC_URL="ftp:\/\/lectern.school": expected an http\(s\) origin/,
    ],
    [
      'PUBLIC_URL',
      'https://lectern.school/app',
      /^Invalid PUBLIC_URL="https:\/\/lectern.school\/app": expected an http\(s\) origin/,
    ],
    ['OPEN_HOURS', '10 to 22', /^Invalid OPEN_HOURS="10 to 22": expected "always" or "H-H"/],
    ['OPEN_HOURS', '25-3', /^Invalid OPEN_HOURS="25-3": hours must be 0-24/],
    ['OPEN_TZ', 'Mars/Olympus', /^Invalid OPEN_TZ="Mars\/Olympus": unknown IANA time zone/],
    ['DATABASE_URL', 'mysql://x', /^Invalid DATABASE_URL="mysql:\/\/x": expected memory:\/\/ or postgres/],
    ['SMTP_URL', 'http://mail', /^Invalid SMTP_URL="http:\/\/mail"/],
    ['MAX_UPLOAD_BYTES', '-5', /^Invalid MAX_UPLOAD_BYTES="-5"/],
    ['SIGNING_KEY', 'short', /^Invalid SIGNING_KEY="short": must be at least 32 characters/],
    ['SHUTDOWN_DRAIN_SECONDS', '-1', /^Invalid SHUTDOWN_DRAIN_SECONDS="-1"/],
    [
      'SHUTDOWN_DRAIN_SECONDS',
      '30',
      /^Invalid SHUTDOWN_DRAIN_SECONDS=30: must be below SHUTDOWN_TIMEOUT_SECONDS/,
    ],
    ['SHUTDOWN_TIMEOUT_SECONDS', 'soon', /^Invalid SHUTDOWN_TIMEOUT_SECONDS="soon"/],
    ['BACKUP_SCHEDULE', '3am', /^Invalid BACKUP_SCHEDULE="3am": expected "off" or a time HH:MM/],
    ['BACKUP_SCHEDULE', '24:00', /^Invalid BACKUP_SCHEDULE="24:00": /],
    ['BACKUP_KEEP', '0', /^Invalid BACKUP_KEEP="0": /],
    ['SPEECH_TIMEOUT_SECONDS', '0', /^Invalid SPEECH_TIMEOUT_SECONDS="0": /],
    ['SPEECH_TIMEOUT_SECONDS', 'an hour', /^Invalid SPEECH_TIMEOUT_SECONDS="an hour": /],
    [
      'TRUST_PROXY',
      'true',
      /^Invalid TRUST_PROXY="true": trusting every proxy lets a client forge its address.*write how many proxies stand in front of Lectern \(1 for one nginx\) or their addresses/,
    ],
    ['TRUST_PROXY', 'yes', /^Invalid TRUST_PROXY="yes": trusting every proxy/],
    ['TRUST_PROXY', '11', /^Invalid TRUST_PROXY="11": expected a hop count from 1 to 10/],
    ['TRUST_PROXY', '10.0.0.5,nginx', /^Invalid TRUST_PROXY="10.0.0.5,nginx": "nginx" is not an IP address/],
    ['TRUST_PROXY', '10.0.0.0/33', /^Invalid TRUST_PROXY="10.0.0.0\/33": "10.0.0.0\/33" is not an IP/],
    ['TRUST_PROXY', '10.0.0.5,', /^Invalid TRUST_PROXY="10.0.0.5,": "" is not an IP address/],
  ])('names %s in a one-line error for %j', (name, value, message) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('knows its public address: PUBLIC_URL as an origin, else the listening address (loopback as localhost)', () => {
    expect(loadConfig({}).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: 'lectern.lan', PORT: '80' }).publicUrl).toBe('http://lectern.lan');
    expect(loadConfig({ PUBLIC_URL: 'https://Lectern.School.example/' }).publicUrl).toBe(
      'https://lectern.school.example',
    );
  });

  it('logs pretty lines on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(loadConfig({}, { stdoutIsTTY: true }).logFormat).toBe('pretty');
    expect(loadConfig({}, { stdoutIsTTY: false }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, { stdoutIsTTY: true }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, { stdoutIsTTY: false }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/^Invalid LOG_FORMAT="yaml": /);
  });

  it('backs up daily at 03:00 keeping 14 by default; HH:MM or off', () => {
    expect(loadConfig({})).toMatchObject({ backupSchedule: { hour: 3, minute: 0 }, backupKeep: 14 });
    expect(loadConfig({ BACKUP_SCHEDULE: '23:45', BACKUP_KEEP: '3' })).toMatchObject({
      backupSchedule: { hour: 23, minute: 45 },
      backupKeep: 3,
    });
    expect(loadConfig({ BACKUP_SCHEDULE: 'off' }).backupSchedule).toBe('off');
  });

  it('trusts no proxy by default, else the nearest hops or the listed proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5' }).trustProxy).toEqual(['10.0.0.5']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.0.1.0/24,fd00::/8,::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.0.1.0/24',
      'fd00::/8',
      '::1',
    ]);
  });

  it('parses wrap-around hours, always-open and PostgreSQL', () => {
    expect(loadConfig({ OPEN_HOURS: '22-6' }).openHours).toEqual([22, 6]);
    expect(loadConfig({ OPEN_HOURS: 'always' }).openHours).toBe('always');
    const pg = loadConfig({ DATABASE_URL: 'postgres://u@h/db' });
    expect(pg.databaseUrl).toBe('postgres://u@h/db');
    expect(pg.seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: 'true', DATABASE_URL: 'memory://' }).seedDemo).toBe(true);
  });

  it('bounds a speech run by SPEECH_TIMEOUT_SECONDS when set (else by the video: unset)', () => {
    expect(loadConfig({}).speechTimeoutSeconds).toBeUndefined();
    expect(loadConfig({ SPEECH_TIMEOUT_SECONDS: '7200' }).speechTimeoutSeconds).toBe(7200);
  });
});
