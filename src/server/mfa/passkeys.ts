import { createHash } from 'node:crypto';
import { and, asc, count, eq, isNotNull, lt } from 'drizzle-orm';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Db } from '../db/client';
import { hasRow } from '../db/has-row';
import { adminFactors, adminPasskeyChallenges, adminPasskeys } from '../db/schema';
import { isUniqueViolation } from '../db/unique-violation';

/**
 * The WebAuthn library (with its ASN.1 and COSE stack, about 0.2 CPU-seconds of module loading),
 * loaded at the first passkey ceremony rather than at every start of a server or a CLI run.
 */
const webauthn = async () => {
  const [server, { isoBase64URL }] = await Promise.all([
    import('@simplewebauthn/server'),
    import('@simplewebauthn/server/helpers'),
  ]);
  return { ...server, isoBase64URL };
};

/** A WebAuthn challenge lives this long: the browser's prompt, and a person finding their key. */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;

type Purpose = 'register' | 'authenticate';

/**
 * The signature algorithms a passkey may use: ES256, Ed25519, RS256 (COSE ids -7, -8, -257). Named,
 * not the library's default: that default probes Node's experimental ML-DSA (a process warning on
 * stderr) and would accept keys only experimental crypto verifies.
 */
const ALGORITHMS = [-7, -8, -257];

/** Who the passkeys belong to: the site people open (config PUBLIC_URL), its host name the relying party. */
export interface RelyingParty {
  name: string;
  /** The origin the browser reports (`https://lectern.school.example`). */
  origin: string;
}

export type PasskeyRow = typeof adminPasskeys.$inferSelect;

/**
 * Admins' passkeys (WebAuthn credentials) and the challenges their ceremonies wait on. A challenge
 * is one row per session (a new ceremony replaces the old one), deleted by the statement that
 * reads it, so it is checked at most once, and only before it expires.
 */
export function passkeyStore(db: Db, rp: RelyingParty) {
  const rpID = new URL(rp.origin).hostname;

  /**
   * Keeps the challenge of `options` as the session's one pending ceremony; answers the options to
   * send, as a plain object (the route's zod answer type wants one, not the library's interface).
   */
  async function keepChallenge<T extends { challenge: string }>(
    sessionId: string,
    purpose: Purpose,
    options: T,
    now: Date,
  ): Promise<{ [K in keyof T]: T[K] }> {
    const { challenge } = options;
    const expiresAt = new Date(now.getTime() + PASSKEY_CHALLENGE_SECONDS * 1000);
    await db
      .insert(adminPasskeyChallenges)
      .values({ sessionId, purpose, challenge, expiresAt })
      .onConflictDoUpdate({
        target: adminPasskeyChallenges.sessionId,
        set: { purpose, challenge, expiresAt },
      });
    return { ...options };
  }

  /** Takes the session's pending challenge for `purpose`: once, and only while it lives. */
  async function takeChallenge(sessionId: string, purpose: Purpose, now: Date): Promise<string | undefined> {
    const [row] = await db
      .delete(adminPasskeyChallenges)
      .where(eq(adminPasskeyChallenges.sessionId, sessionId))
      .returning();
    return row && row.purpose === purpose && row.expiresAt > now ? row.challenge : undefined;
  }

  /**
   * What a response for `purpose` must match: the session's pending challenge (taken, so it is
   * checked once) and this site's origin and host; user verification is asked for, not required.
   * Undefined when there is no live challenge.
   */
  async function expectedFor(sessionId: string, purpose: Purpose, now: Date) {
    const challenge = await takeChallenge(sessionId, purpose, now);
    if (!challenge) return undefined;
    return {
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    };
  }

  /** The library's answer when the response verifies; undefined when not, or when it throws (malformed). */
  async function whenVerified<T extends { verified: boolean }>(
    verify: () => Promise<T>,
  ): Promise<(T & { verified: true }) | undefined> {
    try {
      const answer = await verify();
      return answer.verified ? (answer as T & { verified: true }) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The admin's passkeys as a ceremony names them (excluded from a new one, or allowed to sign in). */
  const credentialsOf = (passkeys: PasskeyRow[]) =>
    passkeys.map((p) => ({ id: p.credentialId, transports: p.transports }));

  const listOf = (userId: string) =>
    db
      .select()
      .from(adminPasskeys)
      .where(eq(adminPasskeys.userId, userId))
      .orderBy(asc(adminPasskeys.createdAt), asc(adminPasskeys.id));

  return {
    listOf,

    async countOf(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(adminPasskeys)
        .where(eq(adminPasskeys.userId, userId));
      return row?.n ?? 0;
    },

    /** Options for navigator.credentials.create(): the admin's existing passkeys excluded. */
    async registrationOptions(
      user: { id: string; username: string; name: string },
      sessionId: string,
      now: Date,
    ) {
      const existing = await listOf(user.id);
      const { generateRegistrationOptions } = await webauthn();
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID,
        userName: user.username,
        userDisplayName: user.name || user.username,
        // A stable, opaque handle: not the database id itself.
        userID: createHash('sha256').update(`lectern admin ${user.id}`).digest().subarray(0, 32),
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        attestationType: 'none',
        excludeCredentials: credentialsOf(existing),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      return keepChallenge(sessionId, 'register', options, now);
    },

    /**
     * Checks a registration against the session's challenge and keeps the passkey; undefined when
     * it does not verify (no challenge, expired, wrong origin, bad attestation), 'known' when the
     * credential is registered already.
     */
    async register(
      userId: string,
      sessionId: string,
      name: string,
      response: RegistrationResponseJSON,
      now: Date,
    ): Promise<PasskeyRow | 'known' | undefined> {
      const expected = await expectedFor(sessionId, 'register', now);
      if (!expected) return undefined;
      const { verifyRegistrationResponse, isoBase64URL } = await webauthn();
      const verified = await whenVerified(() =>
        verifyRegistrationResponse({ response, ...expected, supportedAlgorithmIDs: ALGORITHMS }),
      );
      if (!verified) return undefined;
      const { credential } = verified.registrationInfo;
      try {
        const [row] = await db
          .insert(adminPasskeys)
          .values({
            userId,
            credentialId: credential.id,
            publicKey: isoBase64URL.fromBuffer(credential.publicKey),
            counter: credential.counter,
            transports: credential.transports ?? response.response.transports ?? [],
            name,
            createdAt: now,
          })
          .returning();
        return row;
      } catch (error) {
        if (isUniqueViolation(error)) return 'known';
        throw error;
      }
    },

    /** Options for navigator.credentials.get(): the admin's passkeys allowed; undefined when none. */
    async authenticationOptions(userId: string, sessionId: string, now: Date) {
      const existing = await listOf(userId);
      if (!existing.length) return undefined;
      const { generateAuthenticationOptions } = await webauthn();
      const options = await generateAuthenticationOptions({
        rpID,
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        userVerification: 'preferred',
        allowCredentials: credentialsOf(existing),
      });
      return keepChallenge(sessionId, 'authenticate', options, now);
    },

    /**
     * Checks an assertion against the session's challenge and one of the admin's own passkeys, and
     * moves its counter on (the UPDATE takes it only past the stored counter, so an assertion
     * replayed past a newer one is refused); the passkey used, or undefined.
     */
    async authenticate(
      userId: string,
      sessionId: string,
      response: AuthenticationResponseJSON,
      now: Date,
    ): Promise<PasskeyRow | undefined> {
      const expected = await expectedFor(sessionId, 'authenticate', now);
      if (!expected) return undefined;
      const [passkey] = await db
        .select()
        .from(adminPasskeys)
        .where(and(eq(adminPasskeys.userId, userId), eq(adminPasskeys.credentialId, response.id)));
      if (!passkey) return undefined;
      const { verifyAuthenticationResponse, isoBase64URL } = await webauthn();
      const verified = await whenVerified(() =>
        verifyAuthenticationResponse({
          response,
          ...expected,
          credential: {
            id: passkey.credentialId,
            publicKey: isoBase64URL.toBuffer(passkey.publicKey),
            counter: passkey.counter,
            transports: passkey.transports,
          },
        }),
      );
      if (!verified) return undefined;
      const next = verified.authenticationInfo.newCounter;
      // Authenticators without a counter report 0 every time; otherwise it must move forward.
      const [used] = await db
        .update(adminPasskeys)
        .set({ counter: next, lastUsedAt: now })
        .where(
          and(
            eq(adminPasskeys.id, passkey.id),
            next === 0 ? eq(adminPasskeys.counter, 0) : lt(adminPasskeys.counter, next),
          ),
        )
        .returning();
      return used;
    },

    /**
     * Removes one of the admin's own passkeys: the row removed, undefined when it is not theirs, or
     * 'last' when `keepLastFactor` and it is their only factor (no other passkey, no confirmed app).
     * Their passkeys are locked first, so parallel removals take turns and each counts what the
     * others left: a burst cannot remove them all.
     */
    async remove(
      userId: string,
      passkeyId: string,
      { keepLastFactor }: { keepLastFactor: boolean },
    ): Promise<PasskeyRow | 'last' | undefined> {
      return db.transaction(async (tx) => {
        const held = await tx
          .select({ id: adminPasskeys.id })
          .from(adminPasskeys)
          .where(eq(adminPasskeys.userId, userId))
          .for('update');
        if (!held.some((p) => p.id === passkeyId)) return undefined;
        const app = and(eq(adminFactors.userId, userId), isNotNull(adminFactors.confirmedAt));
        if (keepLastFactor && held.length === 1 && !(await hasRow(tx, adminFactors, app))) return 'last';
        const [gone] = await tx
          .delete(adminPasskeys)
          .where(and(eq(adminPasskeys.id, passkeyId), eq(adminPasskeys.userId, userId)))
          .returning();
        return gone;
      });
    },
  };
}

export type PasskeyStore = ReturnType<typeof passkeyStore>;
