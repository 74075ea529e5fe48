import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { closedMessage, openingState } from './opening-hours';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Student route that answers outside opening hours too. */
    alwaysOpen?: boolean;
  }
}

/** Outside opening hours every student route but those marked `alwaysOpen` answers 503. */
export function installOpeningGate(scope: FastifyInstance, ctx: AppContext): void {
  scope.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.alwaysOpen) return;
    const state = openingState(ctx.clock.now(), ctx.config.openHours, ctx.config.openTimeZone);
    if (state.open) return;
    return reply.status(503).send({
      message: closedMessage(state, ctx.config.productName),
      opensAt: state.opensAt?.toISOString() ?? null,
    });
  });
}
