import type { FastifyPluginAsync } from 'fastify';
import { SignInBody, type AdminCheckResponse } from '../../contract/auth';
import { serverMessages } from '../../contract/messages';
import { parseInput } from '../errors';
import { clearSessionCookie, setSessionCookie } from '../plugins/auth';
import { signIn } from './sign-in';
import type { AccountRouteOptions } from './student-routes';

/** Admin sign-in, check and sign-out (base /api/admin). */
export const adminAccountRoutes: FastifyPluginAsync<AccountRouteOptions> = async (
  app,
  { ctx, auth, sessions, codes },
) => {
  app.post('/login', async (request, reply) => {
    const body = parseInput(SignInBody, request.body);
    const result = await signIn(ctx, { sessions, codes }, body, request.ip, 'admin');
    setSessionCookie(reply, result.token);
    // The admin screen judges success by the word "successful" (SPEC.md section 5).
    return { message: serverMessages.adminSignInSuccess };
  });

  app.get('/auth/admincheck', async (request): Promise<AdminCheckResponse> => {
    const current = await auth.authOf(request);
    return { valid: current?.user.role === 'admin' && current.scope === 'full' };
  });

  app.post('/logout', async (request, reply) => {
    const current = await auth.authOf(request);
    if (current) await sessions.end(current.sessionId);
    clearSessionCookie(reply);
    return { message: serverMessages.loggedOut };
  });
};
