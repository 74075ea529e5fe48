import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mailTo, parseMail, type ReceivedMail } from './smtp';

/**
 * The mail Lectern wrote to DATA_DIR/outbox (no SMTP_URL), read as a new user reads it: the .eml
 * files, parsed like the test SMTP server parses what it receives. The one outbox reader of the
 * tests, the engine journeys and the benches.
 */
export class Outbox {
  constructor(private readonly dir: string) {}

  /** The outbox of a server's DATA_DIR. */
  static of(dataDir: string): Outbox {
    return new Outbox(path.join(dataDir, 'outbox'));
  }

  /** Every mail so far, oldest first (the file names start with a time stamp). */
  get mails(): ReceivedMail[] {
    let files: string[];
    try {
      files = readdirSync(this.dir)
        .filter((f) => f.endsWith('.eml'))
        .sort();
    } catch {
      return [];
    }
    return files.map((f) => parseMail(readFileSync(path.join(this.dir, f), 'utf8')));
  }

  async waitFor(to: string, after = 0, timeoutMs = 15_000): Promise<ReceivedMail> {
    return poll(() => mailTo(this.mails, to, after), timeoutMs, `no mail to ${to} in the outbox`);
  }

  /** The newest six-digit code mailed to `to`. */
  latestCode(to: string): string {
    const mail = this.mails.filter((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase())).at(-1);
    const code = mail && codeIn(mail);
    if (!code) throw new Error(`no code mailed to ${to}`);
    return code;
  }

  /** The newest six-digit code mailed to anyone (the first-login reset), waiting up to `timeoutMs`. */
  async nextCode(timeoutMs = 30_000): Promise<string> {
    return poll(
      () => this.mails.map(codeIn).findLast((code) => code !== undefined),
      timeoutMs,
      `no code mailed to ${this.dir}`,
    );
  }
}

const codeIn = (mail: ReceivedMail) => mail.text.match(/\b(\d{6})\b/)?.[1];

async function poll<T>(find: () => T | undefined, timeoutMs: number, failure: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${failure} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The newest six-digit code in DATA_DIR/outbox, waiting up to `timeoutMs` for it. */
export const outboxCode = (dataDir: string, timeoutMs = 30_000) => Outbox.of(dataDir).nextCode(timeoutMs);

/** Every mail in DATA_DIR/outbox, oldest first. */
export const outboxMails = async (dataDir: string): Promise<ReceivedMail[]> => Outbox.of(dataDir).mails;
