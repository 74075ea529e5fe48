import type { AppContext } from '../context';
import { HttpError } from '../errors';
import { createAdmin, hasAdmin } from './users';

/**
 * Creates the `admin` account on a database without one. Its password is `ADMIN_PASSWORD` or a
 * random one returned for printing once; it is never logged.
 */
export async function ensureFirstAdmin(
  ctx: AppContext,
): Promise<{ username: string; password?: string } | null> {
  if (await hasAdmin(ctx.db)) return null;
  try {
    const admin = await createAdmin(ctx.db, {
      username: 'admin',
      email: 'admin@lectern.local',
      name: 'Administrator',
      password: ctx.config.adminPassword,
    });
    return { username: admin.username, password: admin.generatedPassword };
  } catch (error) {
    // Another node created it at the same moment: seen by our check (409), or by the unique index
    // when both checks ran before either insert (Drizzle keeps pg's error as `cause`).
    if (error instanceof HttpError && error.statusCode === 409) return null;
    const e = error as { code?: string; cause?: { code?: string } };
    if (e.code === '23505' || e.cause?.code === '23505') return null;
    throw error;
  }
}
