import type { Role } from '../db/schema';
import type { FastifyInstance } from 'fastify';
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
