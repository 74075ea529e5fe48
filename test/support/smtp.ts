import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** A real SMTP server on loopback that keeps what it receives, for tests to read codes from. */
export class TestSmtpServer {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer;
  private waiters: (() => void)[] = [];
  /** While set, every message is refused (SMTP outage). */
  refuse = false;
  /** Addresses (lower case) refused at RCPT TO with 550, as a server does for a mailbox it will not take. */
  readonly refusedRecipients = new Set<string>();

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (!this.refusedRecipients.has(address.address.toLowerCase())) return callback();
        callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      },
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (this.refuse) return callback(new Error('mailbox unavailable'));
          this.mails.push(parseMail(Buffer.concat(chunks).toString('utf8')));
          for (const wake of this.waiters.splice(0)) wake();
          callback();
        });
      },
    });
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Waits for the next mail to `to` received after `after` mails, and returns it. */
  async waitFor(to: string, after = 0, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mailTo(this.mails, to, after);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** The 6-digit code of the latest mail to `to`. */
  latestCode(to: string): string {
    const mail = this.mails.filter((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase())).at(-1);
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code mailed to ${to}`);
    return code;
  }
}

/** The first mail to `to` (any case) after the first `after` mails, if one came. */
export function mailTo(mails: ReceivedMail[], to: string, after = 0): ReceivedMail | undefined {
  return mails.slice(after).find((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase()));
}

export function parseMail(raw: string): ReceivedMail {
  const [head = '', ...body] = raw.split(/\r?\n\r?\n/);
  const header = (name: string) =>
    head
      .replace(/\r?\n[ \t]+/g, ' ')
      .split(/\r?\n/)
      .find((l) => l.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  let text = body.join('\n\n');
  if (/quoted-printable/i.test(header('content-transfer-encoding'))) {
    text = text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  const to = header('to')
    .split(',')
    .map((t) => t.match(/<([^>]+)>/)?.[1] ?? t.trim());
  return { to, subject: header('subject'), text };
}
