import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  FRESH_FACTOR_SECONDS,
  SIGNIN_FAILURE_WINDOW_MS,
  SIGNIN_FAILURES_PER_ACCOUNT,
} from '../../contract/constants';
import { serverMessages } from '../../contract/messages';
import { hashPassword, verifyPassword } from '../accounts/passwords';
import { completeStaffSetup } from '../accounts/staff-setup';
import type { Authenticated } from '../accounts/sessions';
import { clientOf, startSession, type AccountRouteOptions } from '../accounts/student-routes';
import { recordSecurityEvent } from '../audit/security-events';
import type { AppContext } from '../context';
import { users, type SessionScope } from '../db/schema';
import { badRequest, conflict, forbidden, notFound, tooManyRequests, unauthorized } from '../errors';
import { registerRoutes } from '../http/route-table';
import { setSessionCookie } from '../http/auth';
import { checkFactorCode, checkPasskeyAttempt } from './code-check';
import { factorStore, type FactorStore } from './factors';
import { passkeyStore, type PasskeyRow } from './passkeys';
import { qrDataUrl } from './qr';
import { recordSignInChange } from './sign-in-changes';
import { totpUri } from './totp';

/**
 * The admin sign-in with its second factor (base /api/admin):
 * password (POST /login) -> a minutes-long `mfa` session that opens only POST /login/totp, or an
 * `enrol` session that opens only setting up a factor (ADMIN_MFA=required and none yet) -> a new,
 * full session whose second factor is fresh. Also: proving the factor again for sensitive routes,
 * recovery codes, passkeys (WebAuthn: at the second step instead of a code, set up instead of the
 * app, listed and removed), the admin's own password and sessions. Every change to the factors or
 * the sessions wants a fresh factor (route table) and goes through `recordSignInChange`.
 */
export const adminSignInRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, deps) => {
  const { ctx, auth, sessions } = deps;
  const factors = factorStore(ctx.db, ctx.signingKey);
  const passkeys = passkeyStore(ctx.db, { name: ctx.config.productName, origin: ctx.config.publicUrl });
  const required = ctx.config.adminMfa === 'required';

  /** The second factors an admin holds: a confirmed app, passkeys (recovery codes come with either). */
  const heldFactors = async (userId: string) => {
    const held: ('totp' | 'passkey')[] = [];
    if ((await factors.get(userId))?.confirmed) held.push('totp');
    if ((await passkeys.countOf(userId)) > 0) held.push('passkey');
    return held;
  };

  /** Ends the step's session and starts the full one (a new token: the pending one is never upgraded). */
  const promote = async (reply: FastifyReply, session: Authenticated) => {
    const now = ctx.clock.now();
    await sessions.end(session.sessionId);
    const token = await sessions.create(session.user, 'full', now, ctx.config.maxStudentSessions, {
      factorAt: now,
      client: clientOf(reply.request),
    });
    setSessionCookie(reply, token);
  };

  /** What a staff member's right password opens, given the factors they hold. */
  const openedBy = (held: readonly string[]): SessionScope => {
    if (held.length) return 'mfa';
    return required ? 'enrol' : 'full';
  };
  /** The answer to a right password: the step still to take, if any. */
  const nextStep = (scope: SessionScope, held: ('totp' | 'passkey')[], enrol: string) => {
    if (scope === 'mfa')
      return { message: serverMessages.mfaCodeNeeded, next: 'totp' as const, factors: held };
    if (scope === 'enrol') return { message: enrol, next: 'enrol' as const };
    // The admin screen judges success by the word "successful" (SPEC.md section 5).
    return { message: serverMessages.adminSignInSuccess };
  };

  registerRoutes(app, auth, {
    'POST /api/admin/login': async (input) => {
      let held: ('totp' | 'passkey')[] = [];
      const adminScope = async (userId: string): Promise<SessionScope> => {
        held = await heldFactors(userId);
        return openedBy(held);
      };
      const result = await startSession(deps, input, 'admin', adminScope);
      return nextStep(
        result.kind === 'signed-in' ? result.scope : 'full',
        held,
        serverMessages.mfaEnrolNeeded,
      );
    },

    // The mailed set-up link (accounts/staff-setup.ts): the new password, then the account's next
    // step as after a sign-in (setting up the factor, under ADMIN_MFA=required).
    'POST /api/admin/setup': async ({ body, request, reply }) => {
      await countSetupTry(ctx, request.ip);
      const now = ctx.clock.now();
      const staff = await completeStaffSetup(ctx.db, body.token, body.newPassword, now);
      if (!staff) throw unauthorized(serverMessages.staffSetupLinkDead);
      await ctx.rateCounter.giveBack(setupTryKey(request.ip));
      await sessions.endAllOf(staff.id);
      await recordSecurityEvent(ctx, now, {
        action: 'password.changed',
        userId: staff.id,
        ip: request.ip,
        details: { by: 'setup-link' },
      });
      const held = await heldFactors(staff.id);
      const scope = openedBy(held);
      const token = await sessions.create(staff, scope, now, ctx.config.maxStudentSessions, {
        client: clientOf(request),
      });
      setSessionCookie(reply, token);
      return nextStep(scope, held, serverMessages.staffSetupDone);
    },

    'POST /api/admin/login/totp': async ({ session, body, request, reply }) => {
      if (session.scope !== 'mfa') throw forbidden(serverMessages.mfaNotPending);
      await checkFactorCode(ctx, factors, session.user.id, body.code, request.ip);
      await promote(reply, session);
      return { message: serverMessages.mfaSignedIn };
    },

    'POST /api/admin/login/passkey/options': async ({ session }) => {
      if (session.scope !== 'mfa' && session.scope !== 'full') throw forbidden(serverMessages.mfaNotPending);
      const options = await passkeys.authenticationOptions(
        session.user.id,
        session.sessionId,
        ctx.clock.now(),
      );
      if (!options) throw forbidden(serverMessages.passkeyNone);
      return { options };
    },

    // The second step with a passkey: the same count-first limit as codes, the same promotion; from a
    // full session it proves the factor again (as POST /mfa/verify does with a code).
    'POST /api/admin/login/passkey': async ({ session, body, request, reply }) => {
      if (session.scope !== 'mfa' && session.scope !== 'full') throw forbidden(serverMessages.mfaNotPending);
      const userId = session.user.id;
      const used = await checkPasskeyAttempt(ctx, userId, request.ip, () =>
        passkeys.authenticate(
          userId,
          session.sessionId,
          body.credential as AuthenticationResponseJSON,
          ctx.clock.now(),
        ),
      );
      const now = ctx.clock.now();
      await recordSecurityEvent(ctx, now, {
        action: 'mfa.passkey-used',
        userId,
        ip: request.ip,
        details: { passkeyId: used.id },
      });
      if (session.scope === 'full') {
        await sessions.markFactor(session.sessionId, now);
        return { message: serverMessages.mfaConfirmed };
      }
      await promote(reply, session);
      return { message: serverMessages.mfaSignedIn };
    },

    'POST /api/admin/passkeys/registration': async ({ session }) => {
      mayAddPasskey(session);
      const options = await passkeys.registrationOptions(session.user, session.sessionId, ctx.clock.now());
      return { options };
    },

    'POST /api/admin/passkeys': async ({ session, body, request, reply }) => {
      mayAddPasskey(session);
      const userId = session.user.id;
      const first = (await heldFactors(userId)).length === 0;
      const now = ctx.clock.now();
      const added = await passkeys.register(
        userId,
        session.sessionId,
        body.name,
        body.credential as RegistrationResponseJSON,
        now,
      );
      if (added === 'known') throw conflict(serverMessages.passkeyKnown);
      if (!added) throw badRequest(serverMessages.passkeyNotAdded);
      await recordSignInChange(deps, session, request.ip, 'mfa.passkey-added', { passkeyId: added.id });
      if (!first) {
        await sessions.markFactor(session.sessionId, now);
        return { message: serverMessages.passkeyAdded, passkey: passkeyView(added) };
      }
      // The admin's first factor: recovery codes come with it, and the `enrol` step becomes a full session.
      const recoveryCodes = await factors.newRecoveryCodes(userId, now);
      await recordSecurityEvent(ctx, now, {
        action: 'mfa.enrolled',
        userId,
        ip: request.ip,
        details: { factor: 'passkey' },
      });
      if (session.scope === 'enrol') await promote(reply, session);
      else await sessions.markFactor(session.sessionId, now);
      return { message: serverMessages.passkeyEnrolled, passkey: passkeyView(added), recoveryCodes };
    },

    'GET /api/admin/passkeys': async ({ session }) => ({
      passkeys: (await passkeys.listOf(session.user.id)).map(passkeyView),
    }),

    'DELETE /api/admin/passkeys/:passkeyId': async ({ session, params, request }) => {
      // Under ADMIN_MFA=required the last factor stays: removing it would leave a full session without one.
      const gone = await passkeys.remove(session.user.id, params.passkeyId, { keepLastFactor: required });
      if (gone === 'last') throw conflict(serverMessages.passkeyLast);
      if (!gone) throw notFound(serverMessages.passkeyUnknown);
      await recordSignInChange(deps, session, request.ip, 'mfa.passkey-removed', { passkeyId: gone.id });
      return { message: serverMessages.passkeyRemoved };
    },

    'POST /api/admin/mfa/enrolment': async ({ session }) => {
      await mayEnrol(session, factors);
      const secret = await factors.begin(session.user.id, ctx.clock.now());
      if (!secret) throw conflict(serverMessages.mfaAlreadyEnrolled);
      const uri = totpUri(ctx.config.productName, session.user.username, secret);
      return { secret, uri, qr: await qrDataUrl(uri), optional: !required };
    },

    'POST /api/admin/mfa/enrol': async ({ session, body, request, reply }) => {
      await mayEnrol(session, factors);
      if (!/^\d+$/.test(body.code)) throw unauthorized(serverMessages.mfaCodeWrong);
      const userId = session.user.id;
      const first = (await heldFactors(userId)).length === 0;
      await checkFactorCode(ctx, factors, userId, body.code, request.ip, {
        allowRecovery: false,
        confirm: true,
      });
      const now = ctx.clock.now();
      // Recovery codes come with the first factor; beside passkeys, the codes they came with stay.
      const recoveryCodes = first ? await factors.newRecoveryCodes(userId, now) : undefined;
      await recordSignInChange(deps, session, request.ip, 'mfa.enrolled', { factor: 'totp' });
      if (session.scope === 'enrol') await promote(reply, session);
      else await sessions.markFactor(session.sessionId, now);
      return recoveryCodes
        ? { message: serverMessages.mfaEnrolled, recoveryCodes }
        : { message: serverMessages.mfaAppAdded };
    },

    'GET /api/admin/mfa': async ({ session }) => {
      const held = await heldFactors(session.user.id);
      const freshUntil =
        session.factorAt && new Date(session.factorAt.getTime() + FRESH_FACTOR_SECONDS * 1000);
      return {
        enrolled: held.length > 0,
        app: held.includes('totp'),
        required,
        recoveryCodesLeft: await factors.recoveryCodesLeft(session.user.id),
        passkeys: await passkeys.countOf(session.user.id),
        freshUntil: freshUntil && freshUntil > ctx.clock.now() ? freshUntil.toISOString() : null,
      };
    },

    'POST /api/admin/mfa/verify': async ({ session, body, request }) => {
      if (!(await factors.get(session.user.id))?.confirmed) throw forbidden(serverMessages.mfaNoFactor);
      await checkFactorCode(ctx, factors, session.user.id, body.code, request.ip);
      await sessions.markFactor(session.sessionId, ctx.clock.now());
      return { message: serverMessages.mfaConfirmed };
    },

    'POST /api/admin/mfa/recovery-codes': async ({ session, request }) => {
      const userId = session.user.id;
      if (!(await heldFactors(userId)).length) throw forbidden(serverMessages.mfaNoFactor);
      const recoveryCodes = await factors.newRecoveryCodes(userId, ctx.clock.now());
      await recordSignInChange(deps, session, request.ip, 'mfa.recovery-renewed');
      return { message: serverMessages.recoveryCodesRenewed, recoveryCodes };
    },

    'POST /api/admin/password': async ({ session, body, request }) => {
      await changePassword(ctx, session, body, request.ip);
      await sessions.endOthersOf(session.user.id, session.sessionId);
      return { message: serverMessages.passwordChanged };
    },

    'GET /api/admin/sessions': async ({ session }) => {
      const list = await sessions.listOf(session.user.id, ctx.clock.now());
      return {
        sessions: list.map((s) => ({
          id: s.id,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
          ip: s.ip,
          userAgent: s.userAgent,
          current: s.id === session.sessionId,
        })),
      };
    },

    'POST /api/admin/sessions/end-others': async ({ session, request }) => {
      await recordSignInChange(deps, session, request.ip, 'session.others-ended');
      return { message: serverMessages.otherSessionsEnded };
    },
  });
};

/** Adding a passkey: at the `enrol` step (instead of the app), or signed in (the route wants a fresh factor). */
function mayAddPasskey(session: Authenticated) {
  if (session.scope !== 'enrol' && session.scope !== 'full') throw forbidden(serverMessages.mfaNotPending);
}

const passkeyView = (p: PasskeyRow) => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
});

/**
 * Setting up the app: the `enrol` step, or a signed-in admin without it (none at all under
 * ADMIN_MFA=optional, or passkeys only: the route wants one of them proven first).
 */
async function mayEnrol(session: Authenticated, factors: FactorStore) {
  if (session.scope === 'enrol') return;
  if (session.scope === 'full' && !(await factors.get(session.user.id))?.confirmed) return;
  throw forbidden(
    session.scope === 'full' ? serverMessages.mfaAlreadyEnrolled : serverMessages.mfaNotPending,
  );
}

/** Wrong set-up links per client in SIGNIN_FAILURE_WINDOW_MS, counted before each check. */
export const SETUP_TRIES_PER_CLIENT = 20;
const setupTryKey = (ip: string) => `setup:ip:${ip}`;

/** Counts a set-up link try of this client first, or refuses it (429); a right link gives it back. */
async function countSetupTry(ctx: AppContext, ip: string) {
  const { count, resetInMs } = await ctx.rateCounter.hit(setupTryKey(ip), SIGNIN_FAILURE_WINDOW_MS);
  if (count > SETUP_TRIES_PER_CLIENT) {
    await ctx.rateCounter.giveBack(setupTryKey(ip));
    throw tooManyRequests(serverMessages.tooManyRequests, Math.ceil(resetInMs / 1000));
  }
}

/** The admin's own password: the current one checked (counted first, like sign-in), the new one set. */
async function changePassword(
  ctx: AppContext,
  session: Authenticated,
  body: { currentPassword: string; newPassword: string },
  ip: string,
) {
  const userId = session.user.id;
  const key = `password-change:${userId}`;
  const window = await ctx.rateCounter.hit(key, SIGNIN_FAILURE_WINDOW_MS);
  if (window.count > SIGNIN_FAILURES_PER_ACCOUNT) {
    await ctx.rateCounter.giveBack(key);
    throw tooManyRequests(serverMessages.tooManySignIns, Math.ceil(window.resetInMs / 1000));
  }
  const [user] = await ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!(await verifyPassword(user?.hash, body.currentPassword)))
    throw unauthorized(serverMessages.currentPasswordWrong);
  await ctx.rateCounter.giveBack(key);
  await ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(body.newPassword) })
    .where(eq(users.id, userId));
  await recordSecurityEvent(ctx, ctx.clock.now(), { action: 'password.changed', userId, ip });
}
