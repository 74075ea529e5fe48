import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Answer, AuthLevel, Parsed } from '../../contract/route-kit';
import { splitRouteKey } from '../../contract/route-kit';
import { routes, type RouteKey, type Routes } from '../../contract/routes';
import type { Authenticated } from './session';
import { parseInput } from '../errors';
import type { Auth } from './auth';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route table entry this route was registered from. */
    routeKey?: RouteKey;
  }
  interface FastifyRequest {
    /** The session the route's auth level demanded, once its guard passed. */
    session?: Authenticated;
    /** The route's input, parsed by the table's schemas before the handler. */
    parsedInput?: ParsedInput;
  }
}

type Guarded = Exclude<AuthLevel, 'public' | 'token'>;

interface ParsedInput {
  body: unknown;
  query: unknown;
  params: unknown;
  headers: unknown;
}

/** What a handler is given: the request, already authenticated and validated from the table. */
export interface RouteInput<K extends RouteKey> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The session the route's auth level demanded (public and token routes read their own, if any). */
  session: Routes[K]['auth'] extends Guarded ? Authenticated : undefined;
  body: Parsed<Routes[K], 'body'>;
  query: Parsed<Routes[K], 'query'>;
  params: Parsed<Routes[K], 'params'>;
  headers: Parsed<Routes[K], 'headers'>;
}

/**
 * A route's handler: authorize, call one service, present. It answers the table's JSON, or a reply
 * it sent itself (files, pre-encoded bodies).
 */
export type Handler<K extends RouteKey> = (
  input: RouteInput<K>,
) => Promise<Answer<Routes[K]> | FastifyReply> | Answer<Routes[K]> | FastifyReply;

/** Handlers for some routes of the table, keyed as the table is. */
export type Handlers<K extends RouteKey = RouteKey> = { [P in K]: Handler<P> };

/** The fields a route's scope may name: path parameters over body fields over query fields. */
function scopedFields({ body, query, params }: ParsedInput): Record<string, unknown> {
  const fields = (value: unknown) => (value !== null && typeof value === 'object' ? value : {});
  return { ...fields(query), ...fields(body), ...fields(params) };
}

/**
 * Registers `handlers` in `scope` (whose prefix each route's path starts with) from the route
 * table: method and path, the auth guard before the body is read, then the table's validation and
 * the ids of the route's `scope` (staff-scope.ts), once for every route, before the handler.
 */
export function registerRoutes<K extends RouteKey>(
  scope: FastifyInstance,
  auth: Auth,
  handlers: Handlers<K>,
) {
  for (const key of Object.keys(handlers) as K[]) {
    const entry: Routes[RouteKey] = routes[key];
    const { method, path } = splitRouteKey(key);
    if (!path.startsWith(scope.prefix)) throw new Error(`${key} is outside the scope ${scope.prefix}`);
    const guard = auth.guard(entry.auth, 'instructor' in entry ? entry.instructor : undefined);
    const fresh = 'freshFactor' in entry && entry.freshFactor === true;
    if (fresh && !guard) throw new Error(`${key}: freshFactor needs a signed-in auth level`);
    const resources = 'scope' in entry ? entry.scope : undefined;
    if (resources && !guard) throw new Error(`${key}: a scope needs a signed-in auth level`);
    const handler = handlers[key] as Handler<RouteKey>;
    scope.route({
      method: method as 'GET' | 'POST' | 'PATCH' | 'DELETE',
      url: path.slice(scope.prefix.length),
      config: { routeKey: key, alwaysOpen: 'alwaysOpen' in entry ? entry.alwaysOpen : undefined },
      onRequest: guard
        ? async (request) => {
            request.session = await guard(request);
            if (fresh) await auth.requireFreshFactor(request.session);
          }
        : undefined,
      preHandler: async (request) => {
        const parsed: ParsedInput = {
          body: 'body' in entry ? parseInput(entry.body, request.body) : undefined,
          query: 'query' in entry ? parseInput(entry.query, request.query) : undefined,
          params: 'params' in entry ? parseInput(entry.params, request.params) : undefined,
          headers: 'headers' in entry ? parseInput(entry.headers, request.headers) : undefined,
        };
        request.parsedInput = parsed;
        if (resources) await auth.requireScope(request.session!, resources, scopedFields(parsed));
      },
      handler: async (request, reply) => {
        const input = {
          request,
          reply,
          session: request.session,
          ...request.parsedInput,
        } as RouteInput<RouteKey>;
        if ('status' in entry) reply.status(entry.status);
        return handler(input);
      },
    });
  }
}

/** The table's routes that `app` did not register: a handler is missing (checked at start). */
export function unregisteredRoutes(app: FastifyInstance): string[] {
  const registered = new Set(app.registeredRoutes.map((r) => `${r.method} ${r.url}`));
  return Object.keys(routes).filter((key) => !registered.has(key));
}
