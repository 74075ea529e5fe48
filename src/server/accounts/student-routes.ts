import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SignInBody } from '../../contract/auth';
import { ACCOUNT_BUDGET_WINDOW_MS, OTP_RESEND_SECONDS } from '../../contract/constants';
import { serverMessages } from '../../contract/messages';
import { tooManyRequests, unavailable } from '../errors';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { clearSessionCookie, setSessionCookie } from '../http/auth';
import { openingState } from '../../contract/opening-hours';
import { mailNewCode, type OneTimeCodeStore } from './one-time-codes';
import { pretendNewCode, resetPassword } from './password-reset';
import type { SessionClient, SessionStore } from './sessions';
import type { SessionScope } from '../db/schema';
import { signIn } from './sign-in';
import { findUserByLogin } from './users';
import { recordSecurityEvent } from '../audit/security-events';

export interface AccountRouteOptions extends RouteOptions {
  sessions: SessionStore;
  codes: OneTimeCodeStore;
}

const FORGOT_PER_IP = 20;
/** Codes mailed through "forgot password" per account and day: 10 codes of 5 tries stay inside the day's budget of wrong codes. */
const FORGOT_PER_ACCOUNT = 10;
const FORGOT_WINDOW_MS = 15 * 60_000;

/** Student sign-in, first-login reset, forgot password, session check and server time (base /api). */
export const studentAccountRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, deps) => {
  const { ctx, auth, sessions, codes } = deps;
  registerRoutes(app, auth, {
    'POST /api/signin': async (input) => {
      const result = await startSession(deps, input, 'student');
      if (result.kind === 'first-login') {
        return { message: result.mailed ? serverMessages.firstSignIn : serverMessages.firstSignInMailFailed };
      }
      return { message: serverMessages.signInSuccess };
    },

    'POST /api/otp/send': async ({ session: { user } }) => {
      const mailing = await mailNewCode(ctx, codes, user);
      if (mailing.kind === 'wait')
        throw tooManyRequests(
          `Please wait ${mailing.seconds} seconds before requesting another code.`,
          mailing.seconds,
        );
      if (mailing.kind === 'failed') throw unavailable(serverMessages.otpMailFailed);
      return { message: serverMessages.otpSent, retryAfter: OTP_RESEND_SECONDS };
    },

    'POST /api/password/reset': async ({ body, request, reply }) => {
      await resetPassword(ctx, { sessions, codes }, await auth.authOf(request), body, request.ip);
      clearSessionCookie(reply);
      return { message: serverMessages.resetDone };
    },

    'POST /api/password/forgot': async ({ body, request }) => {
      const fromIp = await ctx.rateCounter.hit(`forgot:ip:${request.ip}`, FORGOT_WINDOW_MS);
      if (fromIp.count > FORGOT_PER_IP) {
        throw tooManyRequests(serverMessages.tooManyRequests, Math.ceil(fromIp.resetInMs / 1000));
      }
      const user = await findUserByLogin(ctx.db, body.username);
      // Past the account's day of codes the answer stays the same (it must not tell accounts apart); no mail goes.
      const account = user ? user.id : `name:${body.username.toLowerCase()}`;
      const forAccount = await ctx.rateCounter.hit(`forgot:account:${account}`, ACCOUNT_BUDGET_WINDOW_MS);
      if (forAccount.count <= FORGOT_PER_ACCOUNT) {
        // Not awaited: the answer must take the same time whether or not the account exists.
        const issuing =
          user?.role === 'student' ? mailNewCode(ctx, codes, user) : pretendNewCode(ctx, body.username);
        void issuing.catch((error) => ctx.logger.error({ err: error }, 'forgot-password code failed'));
      }
      return { message: serverMessages.forgotAnswer };
    },

    'POST /api/logout': (input) => signOut(deps, input),

    'GET /api/auth/check': async ({ request }) => {
      const current = await auth.authOf(request);
      // An admin between the password and the second factor is not signed in yet.
      if (!current || current.scope === 'mfa' || current.scope === 'enrol') return { valid: false };
      return {
        valid: true,
        role: current.user.role,
        firstlogin: current.scope === 'reset' || current.user.firstLogin,
      };
    },

    'GET /api/time': () => {
      const state = openingState(ctx.clock.now(), ctx.config.openHours, ctx.config.openTimeZone);
      return {
        hour: state.hour,
        open: state.open,
        opensAt: state.opensAt?.toISOString() ?? null,
        closesAt: state.closesAt?.toISOString() ?? null,
        timeZone: state.timeZone,
        hours: ctx.config.openHours === 'always' ? null : ctx.config.openHours,
      };
    },
  });
};

/** Signs in as `role` (SPEC.md section 7's sign-in payload) and sets the session cookie. */
export async function startSession(
  { ctx, sessions, codes }: AccountRouteOptions,
  { body, request, reply }: { body: SignInBody; request: FastifyRequest; reply: FastifyReply },
  role: 'student' | 'admin',
  adminScope?: (userId: string) => Promise<SessionScope>,
) {
  const result = await signIn(ctx, { sessions, codes, adminScope }, body, clientOf(request), role);
  setSessionCookie(reply, result.token);
  return result;
}

/** Where a request comes from, as a session records it. */
export function clientOf(request: FastifyRequest): SessionClient {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** Ends the request's session, if any, and clears the cookie (student and admin sign-out alike). */
export async function signOut(
  { ctx, auth, sessions }: Pick<AccountRouteOptions, 'ctx' | 'auth' | 'sessions'>,
  { request, reply }: { request: FastifyRequest; reply: FastifyReply },
) {
  const current = await auth.authOf(request);
  if (current) {
    await sessions.end(current.sessionId);
    await recordSecurityEvent(ctx, ctx.clock.now(), {
      action: 'session.ended',
      userId: current.user.id,
      ip: request.ip,
      details: { by: 'sign-out' },
    });
  }
  clearSessionCookie(reply);
  return { message: serverMessages.loggedOut };
}
