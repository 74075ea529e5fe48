/** The doctor's lines about this machine: settings, Node.js, mail, ffmpeg's encoders, disk, Tesseract, speech. */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { SETTING_NAMES, type Config } from '../config';
import { diskCheck, freeBytes } from '../health/checks';
import { oneLine } from '../health/readiness';
import { speechCommandCheck } from '../search/health-check';
import { checkTesseract } from '../search/ocr';
import { fromCheck, READINESS_FIXES, type DoctorLine } from './doctor-line';

export const DISK_WARN_BYTES = 5e9;

const SECRET_NAME = /KEY|SECRET|PASSWORD|TOKEN/;

/** A setting as the doctor prints it: secrets hidden, passwords in URLs hidden. */
export function maskSetting(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return '•••';
  return value.replace(/(\/\/[^/\s:@]*:)[^@/\s]*@/, '$1•••@');
}

export function settingsLine(env: NodeJS.ProcessEnv): DoctorLine {
  const set = SETTING_NAMES.filter((name) => env[name]);
  return {
    verdict: 'ok',
    name: 'settings',
    detail: set.length
      ? set.map((name) => `${name}=${maskSetting(name, env[name]!)}`).join(' ')
      : 'all defaults (see .env.example)',
  };
}

/** The oldest Node.js Lectern runs on: package.json's engines (its dependencies need 22.19). */
export const MIN_NODE = '22.19';

/** The Node.js running this command (npm's scripts run the one `npm install` put in node_modules/.bin). */
export function nodeLine(version = process.version, execPath = process.execPath): DoctorLine {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = MIN_NODE.split('.').map(Number);
  const detail = `${version} (${execPath})`;
  return major > minMajor || (major === minMajor && minor >= minMinor)
    ? { verdict: 'ok', name: 'node', detail }
    : {
        verdict: 'fail',
        name: 'node',
        detail: `${detail}: Lectern needs Node.js ${MIN_NODE}+ (24 LTS)`,
        fix: 'run it through npm (npm run cli, npm run serve), or install Node.js 24: README, Prerequisites',
      };
}

export async function mailLine(config: Readonly<Config>): Promise<DoctorLine> {
  if (config.smtpUrl) {
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport(config.smtpUrl);
    try {
      await Promise.race([
        transport.verify(),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('no answer within 10 s')), 10_000).unref(),
        ),
      ]);
      return { verdict: 'ok', name: 'mail', detail: `SMTP ${new URL(config.smtpUrl).host} answered EHLO` };
    } catch (error) {
      return {
        verdict: 'fail',
        name: 'mail',
        detail: `SMTP ${new URL(config.smtpUrl).host}: ${oneLine(error)}`,
        fix: 'check SMTP_URL (host, port, user and password) and that the server is reachable',
      };
    } finally {
      transport.close();
    }
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const probe = path.join(outbox, `.doctor-${process.pid}`);
  try {
    await mkdir(outbox, { recursive: true });
    await writeFile(probe, 'doctor');
    await rm(probe);
    return {
      verdict: 'ok',
      name: 'mail',
      detail: 'no SMTP_URL: mail goes to DATA_DIR/outbox, which is writable',
    };
  } catch (error) {
    return {
      verdict: 'fail',
      name: 'mail',
      detail: `outbox not writable: ${oneLine(error)}`,
      fix: 'make DATA_DIR/outbox writable by this user, or set SMTP_URL',
    };
  }
}

export async function encodersLine(config: Readonly<Config>): Promise<DoctorLine> {
  try {
    const { stdout } = await promisify(execFile)(config.ffmpegPath, ['-hide_banner', '-encoders'], {
      timeout: 10_000,
    });
    const missing = ['libx264', 'aac'].filter(
      (name) => !new RegExp(`^\\s*\\S+\\s+${name}\\s`, 'm').test(stdout),
    );
    return missing.length
      ? {
          verdict: 'fail',
          name: 'encoders',
          detail: `ffmpeg lacks ${missing.join(' and ')}`,
          fix: "install Debian's ffmpeg (it has libx264 and aac)",
        }
      : { verdict: 'ok', name: 'encoders', detail: 'ffmpeg has libx264 and aac' };
  } catch (error) {
    return { verdict: 'fail', name: 'encoders', detail: oneLine(error), fix: READINESS_FIXES.ffmpeg };
  }
}

export async function diskLine(config: Readonly<Config>): Promise<DoctorLine> {
  const line = await fromCheck(diskCheck(config));
  if (line.verdict === 'fail') return line;
  const free = await freeBytes(config.dataDir);
  const detail = `${(free / 1e9).toFixed(1)} GB free in ${config.dataDir}`;
  return free < DISK_WARN_BYTES
    ? {
        verdict: 'warn',
        name: 'disk',
        detail,
        fix: 'keep 5 GB free: an upload is copied once into DATA_DIR while ffmpeg packages it',
      }
    : { verdict: 'ok', name: 'disk', detail };
}

/** Text on screen for search (SEARCH_OCR=on): a warning, never a fail (playback goes on without it). */
export async function tesseractLine(config: Config): Promise<DoctorLine> {
  try {
    await checkTesseract(config.tesseractPath, config.ocrLangs);
    return { verdict: 'ok', name: 'tesseract', detail: `OCR_LANGS ${config.ocrLangs}` };
  } catch (error) {
    return {
      verdict: 'warn',
      name: 'tesseract',
      detail: `${oneLine(error)}; screen-text indexing waits, search answers from what is indexed`,
      fix: 'apt-get install tesseract-ocr tesseract-ocr-eng (and each OCR_LANGS language), or SEARCH_OCR=off',
    };
  }
}

/** SPEECH_COMMAND's program (a warning, as Tesseract's: search answers from what is indexed). */
export async function speechLine(command: string): Promise<DoctorLine> {
  const line = await fromCheck(speechCommandCheck(command));
  if (line.verdict === 'ok') return { ...line, detail: 'its program is there' };
  return {
    ...line,
    verdict: 'warn',
    detail: `${line.detail}; speech indexing fails, search answers from what is indexed`,
    fix: 'install the program SPEECH_COMMAND names (docs/SEARCH.md), or unset SPEECH_COMMAND',
  };
}
