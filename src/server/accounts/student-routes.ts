import type { FastifyPluginAsync } from 'fastify';
import { ForgotPasswordBody, ResetPasswordBody, SignInBody } from '../../contract/auth';
import type { AuthCheckResponse, OtpSentResponse, ServerTimeResponse } from '../../contract/auth';
import { OTP_RESEND_SECONDS } from '../../contract/constants';
import { serverMessages } from '../../contract/messages';
import type { AppContext } from '../context';
import { forbidden, parseInput, tooManyRequests, unavailable } from '../errors';
import { clearSessionCookie, setSessionCookie, type Auth } from '../plugins/auth';
import { openingState } from '../plugins/opening-hours';
import type { OneTimeCodeStore } from './one-time-codes';
import { resetPassword } from './password-reset';
import type { SessionStore } from './sessions';
import { sendResetCode, signIn } from './sign-in';
import { findUserByLogin } from './users';

export interface AccountRouteOptions {
  ctx: AppContext;
  auth: Auth;
  sessions: SessionStore;
  codes: OneTimeCodeStore;
}

const FORGOT_PER_IP = 20;
const FORGOT_WINDOW_MS = 15 * 60_000;

/** Student sign-in, first-login reset, forgot password, session check and server time (base /api). */
export const studentAccountRoutes: FastifyPluginAsync<AccountRouteOptions> = async (
  app,
  { ctx, auth, sessions, codes },
) => {
  app.post('/signin', async (request, reply) => {
    const body = parseInput(SignInBody, request.body);
    const result = await signIn(ctx, { sessions, codes }, body, request.ip, 'student');
    setSessionCookie(reply, result.token);
    if (result.kind === 'first-login') {
      return { message: result.mailed ? serverMessages.firstSignIn : serverMessages.firstSignInMailFailed };
    }
    return { message: serverMessages.signInSuccess };
  });

  app.post('/otp/send', async (request): Promise<OtpSentResponse> => {
    const { user } = await auth.requireSession(request);
    if (user.role !== 'student') throw forbidden(serverMessages.studentsOnly);
    const wait = await codes.cooldown(user.id, ctx.clock.now());
    if (wait > 0) throw tooManyRequests(`Please wait ${wait} seconds before requesting another code.`, wait);
    if (!(await sendResetCode(ctx, codes, user))) throw unavailable(serverMessages.otpMailFailed);
    return { message: serverMessages.otpSent, retryAfter: OTP_RESEND_SECONDS };
  });

  app.post('/password/reset', async (request, reply) => {
    const body = parseInput(ResetPasswordBody, request.body);
    await resetPassword(ctx, { sessions, codes }, await auth.authOf(request), body);
    clearSessionCookie(reply);
    return { message: serverMessages.resetDone };
  });

  app.post('/password/forgot', async (request) => {
    const body = parseInput(ForgotPasswordBody, request.body);
    const fromIp = await ctx.rateCounter.hit(`forgot:ip:${request.ip}`, FORGOT_WINDOW_MS);
    if (fromIp.count > FORGOT_PER_IP) {
      throw tooManyRequests('Too many requests. Please try again later.', Math.ceil(fromIp.resetInMs / 1000));
    }
    const user = await findUserByLogin(ctx.db, body.username);
    if (user?.role === 'student') {
      // Not awaited: the answer must take the same time whether or not the account exists.
      void sendResetCode(ctx, codes, user, { skipIfRecent: true }).catch((error) =>
        ctx.logger.error({ err: error }, 'forgot-password code failed'),
      );
    }
    return { message: serverMessages.forgotAnswer };
  });

  app.post('/logout', async (request, reply) => {
    const current = await auth.authOf(request);
    if (current) await sessions.end(current.sessionId);
    clearSessionCookie(reply);
    return { message: serverMessages.loggedOut };
  });

  app.get('/auth/check', { config: { alwaysOpen: true } }, async (request): Promise<AuthCheckResponse> => {
    const current = await auth.authOf(request);
    if (!current) return { valid: false };
    return {
      valid: true,
      role: current.user.role,
      firstlogin: current.scope === 'reset' || current.user.firstLogin,
    };
  });

  app.get('/time', { config: { alwaysOpen: true } }, async (): Promise<ServerTimeResponse> => {
    const state = openingState(ctx.clock.now(), ctx.config.openHours, ctx.config.openTimeZone);
    return {
      hour: state.hour,
      open: state.open,
      opensAt: state.opensAt?.toISOString() ?? null,
      closesAt: state.closesAt?.toISOString() ?? null,
      timeZone: state.timeZone,
      hours: ctx.config.openHours === 'always' ? null : ctx.config.openHours,
    };
  });
};
