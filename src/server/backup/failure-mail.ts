import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { users } from '../db/schema';
import type { Mail } from '../mail/mailer';
import { claimFailureMail, releaseFailureMail, type BackupRunRow } from './runs';

export function backupFailedMail(
  productName: string,
  to: string,
  run: Pick<BackupRunRow, 'scheduledFor' | 'attempts'>,
  reason: string,
): Mail {
  return {
    to,
    subject: `${productName}: the scheduled backup failed`,
    text: [
      `The scheduled backup${run.scheduledFor ? ` of ${run.scheduledFor}` : ''} failed after ${run.attempts} ${run.attempts === 1 ? 'attempt' : 'attempts'}:`,
      '',
      `  ${reason}`,
      '',
      'Nothing new has been backed up since the last successful backup. Fix the cause, then press',
      '"Back up now" on the Backups screen (/adminbackups); the admin dashboard shows this failure',
      'until a backup succeeds.',
    ].join('\n'),
  };
}

/**
 * Tells every admin, once per run, that a scheduled backup finally failed. A mail that cannot be
 * handed over (SMTP down) is logged and the run left unmarked, so a later failure mails again.
 */
export async function mailAdminsAboutFailure(
  ctx: AppContext,
  run: BackupRunRow,
  reason: string,
): Promise<void> {
  if (!(await claimFailureMail(ctx.db, run.id, ctx.clock.now()))) return;
  const admins = await ctx.db.select({ email: users.email }).from(users).where(eq(users.role, 'admin'));
  const results = await Promise.allSettled(
    admins.map((a) => ctx.mailer.send(backupFailedMail(ctx.config.productName, a.email, run, reason))),
  );
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length === admins.length && admins.length > 0) {
    await releaseFailureMail(ctx.db, run.id);
    ctx.logger.error(
      { run: run.id, err: (failed[0] as PromiseRejectedResult).reason },
      'could not mail the admins about a failed backup',
    );
  } else if (failed.length) {
    ctx.logger.warn(
      { run: run.id, failed: failed.length },
      'some admins could not be mailed about a failed backup',
    );
  }
}
