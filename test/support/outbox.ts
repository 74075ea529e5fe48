import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseMail, type ReceivedMail } from './smtp';

/**
 * The newest six-digit code in DATA_DIR/outbox (mail as .eml files when SMTP_URL is unset: the
 * first-login reset), waiting up to `timeoutMs` for it.
 */
export async function outboxCode(dataDir: string, timeoutMs = 30_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (await readdir(outbox).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.eml'))
      .sort();
    for (const file of files.reverse()) {
      const code = (await readFile(path.join(outbox, file), 'utf8')).match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
    }
    if (Date.now() > deadline) throw new Error(`no code mailed to ${outbox}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every mail in DATA_DIR/outbox, oldest first, read like the test SMTP server reads them. */
export async function outboxMails(dataDir: string): Promise<ReceivedMail[]> {
  const outbox = path.join(dataDir, 'outbox');
  const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(files.map(async (f) => parseMail(await readFile(path.join(outbox, f), 'utf8'))));
}
