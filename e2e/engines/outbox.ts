import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mailTo, parseMail, type ReceivedMail } from '../../test/support/smtp';

/** The mail Lectern wrote to DATA_DIR/outbox (no SMTP_URL), read as a new user reads it: the .eml files. */
export class Outbox {
  constructor(private readonly dir: string) {}

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
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mailTo(this.mails, to, after);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} in the outbox within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  latestCode(to: string): string {
    const mail = this.mails.filter((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase())).at(-1);
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code mailed to ${to}`);
    return code;
  }
}
