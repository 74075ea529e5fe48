import { readdir, readFile } from 'node:fs/promises';

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createLogger } from '../runtime';
import { TestSmtpServer } from '../../../test/support/smtp';
import { createMailer } from './mailer';
import { suiteTempDirs } from '../../../test/support/temp-dirs';

const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));

describe('mailer', () => {
  const tempDir = suiteTempDirs();

  it('writes an .eml file to the outbox when no SMTP server is configured', async () => {
    const dir = await tempDir('outbox-');
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Lectern <no-reply@lectern.local>',
      outboxDir: dir,
      logger,
    });
    await mailer.send({ to: 'a@example.test', subject: 'Your code 123456', text: 'Your code is 123456.' });
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await readFile(path.join(dir, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: a@example.test$/m);
    expect(eml).toContain('Your code is 123456.');
  });

  it('delivers over SMTP and rejects when the server refuses', async () => {
    const smtp = await new TestSmtpServer().start();
    try {
      const mailer = createMailer({
        smtpUrl: smtp.url,
        from: 'x@lectern.local',
        outboxDir: '/nonexistent',
        logger,
      });
      await mailer.send({ to: 'b@example.test', subject: 'Hi', text: 'Hello there' });
      expect((await smtp.waitFor('b@example.test')).text).toContain('Hello there');
      smtp.refuse = true;
      await expect(mailer.send({ to: 'b@example.test', subject: 'Hi', text: 'again' })).rejects.toThrow();
      mailer.close();
    } finally {
      await smtp.stop();
    }
  });
});
