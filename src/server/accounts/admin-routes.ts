import type { FastifyPluginAsync } from 'fastify';
import { serverMessages } from '../../contract/messages';
import { registerRoutes } from '../http/route-table';

import { signOut, startSession, type AccountRouteOptions } from './student-routes';

/** Admin sign-in, check and sign-out (base /api/admin). */
export const adminAccountRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, deps) => {
  const { auth } = deps;
  registerRoutes(app, auth, {
    'POST /api/admin/login': async (input) => {
      await startSession(deps, input, 'admin');
      // The admin screen judges success by the word "successful" (SPEC.md section 5).
      return { message: serverMessages.adminSignInSuccess };
    },

    'GET /api/admin/auth/admincheck': async ({ request }) => {
      const current = await auth.authOf(request);
      return { valid: current?.user.role === 'admin' && current.scope === 'full' };
    },

    'POST /api/admin/logout': (input) => signOut(deps, input),
  });
};
