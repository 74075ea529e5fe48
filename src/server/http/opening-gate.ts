import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import { liveClasses, type Role } from '../db/schema';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { unavailable, type HttpError } from '../errors';
import { closedMessage, openingState } from '../../contract/opening-hours';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Student route that answers outside opening hours too. */
    alwaysOpen?: boolean;
  }
}

export type OpeningRule = Pick<Config, 'openHours' | 'openTimeZone' | 'productName'>;

/** The 503 a student gets at `now` (the message and when it opens), or undefined while open. */
function closedToStudents(now: Date, rule: OpeningRule): HttpError | undefined {
  const state = openingState(now, rule.openHours, rule.openTimeZone);
  if (state.open) return undefined;
  return unavailable(closedMessage(state, rule.productName), {
    opensAt: state.opensAt?.toISOString() ?? null,
  });
}

/** The 503 `user` gets at `now` when they are a student outside opening hours, or undefined. */
export function closedTo(user: { role: Role }, now: Date, rule: OpeningRule): HttpError | undefined {
  return user.role === 'student' ? closedToStudents(now, rule) : undefined;
}

/**
 * The check of the routes a student shares with admins (`viewer`: captions, playback sessions,
 * playlists, keys, posters), outside the student API's gate: their handlers know the role.
 */
export function requireOpenTo(user: { role: Role }, now: Date, rule: OpeningRule): void {
  const closed = closedTo(user, now, rule);
  if (closed) throw closed;
}

/** Outside opening hours every student API route but those marked `alwaysOpen` answers 503. */
export function installOpeningGate(scope: FastifyInstance, ctx: AppContext): void {
  scope.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.alwaysOpen) return;
    const closed = closedToStudents(ctx.clock.now(), ctx.config);
    if (closed) throw closed;
  });
}

const MINUTE_MS = 60_000;

/** When a live class's time is up. */
export const classEnd = (row: { startsAt: Date; minutes: number }) =>
  new Date(row.startsAt.getTime() + row.minutes * MINUTE_MS);

/**
 * Whether `videoId` is the lecture of a class running now that started within the opening hours:
 * its playlists and keys stay open to its students past closing, to the class's end (issue 38).
 * Part of the opening gate, below the routes that serve a video (delivery, playback, progress,
 * questions) and the live domain that runs classes, so that each of them can ask it.
 */
export async function runningClassLecture(
  db: Db,
  videoId: string,
  now: Date,
  rule: Pick<OpeningRule, 'openHours' | 'openTimeZone'>,
): Promise<boolean> {
  const [row] = await db
    .select({ startsAt: liveClasses.startsAt, minutes: liveClasses.minutes })
    .from(liveClasses)
    .where(and(eq(liveClasses.videoId, videoId), eq(liveClasses.status, 'live')))
    .limit(1);
  if (!row || row.startsAt > now || classEnd(row) <= now) return false;
  return rule.openHours === 'always' || openingState(row.startsAt, rule.openHours, rule.openTimeZone).open;
}

/**
 * Opening hours for a student's playback of `videoId` (playlists, keys, the playback session): a 503
 * outside them, except for the lecture of a class under way that started within them, which stays
 * watchable to its end (issue 38, docs/LIVE.md). The class is looked up only once the gate is closed.
 */
export async function requireOpenOrRunningClass(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config'>,
  user: { role: Role },
  videoId: string,
): Promise<void> {
  const now = ctx.clock.now();
  const closed = closedTo(user, now, ctx.config);
  if (!closed) return;
  if (isUuid(videoId) && (await runningClassLecture(ctx.db, videoId, now, ctx.config))) return;
  throw closed;
}
