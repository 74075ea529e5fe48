import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/unique-violation';
import { HttpError } from '../errors';
import { recordSecurityEvent } from '../audit/security-events';
import { createAdmin, hasAdmin } from './users';

/**
 * Creates the first admin (ADMIN_USERNAME, default `admin`) on a database without one. Its
 * password is `ADMIN_PASSWORD` or a random one returned for printing once; it is never logged.
 */
export async function ensureFirstAdmin(
  ctx: AppContext,
): Promise<{ username: string; password?: string } | null> {
  if (await hasAdmin(ctx.db)) return null;
  try {
    const admin = await createAdmin(ctx.db, {
      username: ctx.config.adminUsername,
      email: 'admin@lectern.local',
      name: 'Administrator',
      password: ctx.config.adminPassword,
    });
    await recordSecurityEvent(ctx, ctx.clock.now(), {
      action: 'admin.created',
      userId: admin.id,
      details: { by: 'first start' },
    });
    return { username: admin.username, password: admin.generatedPassword };
  } catch (error) {
    // Another node created it at the same moment: seen by our check (409), or by the unique index
    // when both checks ran before either insert.
    if (error instanceof HttpError && error.statusCode === 409) return null;
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}
