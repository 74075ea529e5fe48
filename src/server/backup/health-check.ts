import type { AppContext } from '../context';
import type { HealthCheck } from '../health/readiness';
import { openTarget } from './target';

/**
 * BACKUP_TARGET can be reached and written (where jobs run, which is where backups run). Advisory:
 * `/readyz` and the doctor name it when it is away, but the node stays ready (students can still
 * watch); the failed scheduled backup mails the admins.
 */
export function backupTargetCheck(ctx: Pick<AppContext, 'config'>): HealthCheck {
  return {
    name: 'backup',
    advisory: true,
    cacheMs: 60_000,
    timeoutMs: 5_000,
    async probe() {
      const target = openTarget(ctx.config.backup, undefined, ctx.config.s3);
      try {
        await target.check();
      } finally {
        target.close();
      }
    },
  };
}
