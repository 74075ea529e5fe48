import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Files sent with the text (a live class's .ics, live/reminders.ts). */
  attachments?: { filename: string; content: string; contentType: string }[];
}

export interface Mailer {
  /** Rejects when the mail could not be handed over; callers decide what the user is told. */
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** SMTP when `smtpUrl` is set; otherwise each mail becomes an .eml file in `outboxDir`. */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: FastifyBaseLogger;
}): Mailer {
  // nodemailer is loaded at the first mail, not at every start of a server or a CLI run.
  const nodemailer = async () => (await import('nodemailer')).default;
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    let transport: ReturnType<typeof smtpTransport> | undefined;
    const smtpTransport = async () =>
      (await nodemailer()).createTransport(smtpUrl, {
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      } as object);
    return {
      async send(mail) {
        await (await (transport ??= smtpTransport())).sendMail({ from: options.from, ...mail });
      },
      close: () => void transport?.then((t) => t.close()),
    };
  }
  let outbox: ReturnType<typeof outboxTransport> | undefined;
  const outboxTransport = async () =>
    (await nodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await (await (outbox ??= outboxTransport())).sendMail({ from: options.from, ...mail });
      await mkdir(options.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(options.outboxDir, `${stamp}-${randomBytes(3).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The path, never the body: the body may hold a code or a password.
      options.logger.info({ to: mail.to, file }, 'no SMTP_URL set: mail written to the outbox');
    },
    close: () => void outbox?.then((t) => t.close()),
  };
}
