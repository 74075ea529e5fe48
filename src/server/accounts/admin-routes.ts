import type { FastifyPluginAsync } from 'fastify';
import { registerRoutes } from '../http/route-table';

import { signOut, type AccountRouteOptions } from './student-routes';

/** Admin session check and sign-out (base /api/admin); the sign-in itself, with its second factor, is mfa/. */
export const adminAccountRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, deps) => {
  const { auth } = deps;
  registerRoutes(app, auth, {
    'GET /api/admin/auth/admincheck': async ({ request }) => {
      const current = await auth.authOf(request);
      if (!current || current.scope !== 'full' || current.user.role === 'student') return { valid: false };
      if (current.user.role === 'admin') return { valid: true, role: 'admin' as const };
      return { valid: true, role: 'instructor' as const, courseIds: [...(current.teaches ?? [])] };
    },

    'POST /api/admin/logout': (input) => signOut(deps, input),
  });
};
