import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants';
import { IsoTime, MessageResponse, NewPassword } from './auth';

/**
 * A second-factor code as typed: six digits from the authenticator app, or a recovery code
 * (`xxxxx-xxxxx`, any case, spaces and dashes ignored). The server tells them apart.
 */
export const FactorCode = z
  .string()
  .trim()
  .min(6, 'Please enter the 6-digit code.')
  .max(32, 'That code is too long.')
  .transform((value) => value.replace(/[\s-]/g, '').toLowerCase())
  .refine((value) => /^[0-9a-z]+$/.test(value), 'Please enter the 6-digit code.');

export const FactorCodeBody = z.object({ code: FactorCode });

/**
 * POST /api/admin/setup: the token of the one-time link mailed to a staff member (the part after
 * `#` in /adminsetup#…) and the password they choose.
 */
export const StaffSetupBody = z.object({
  token: z
    .string()
    .min(1, 'This set-up link is not complete. Open the link from the e-mail again.')
    .max(100, 'This set-up link is not right. Open the link from the e-mail again.'),
  newPassword: NewPassword,
});
export type StaffSetupBody = z.infer<typeof StaffSetupBody>;

/** POST /api/admin/login: the spec's message, and the step still to take when the password alone is not enough. */
export const AdminSignInResponse = z.strictObject({
  message: z.string(),
  /** `totp`: enter the code (or a recovery code); `enrol`: set up a second factor first. */
  next: z.enum(['totp', 'enrol']).optional(),
  /** With `next: 'totp'`: the factors the admin holds (an app's codes, passkeys); recovery codes always work. */
  factors: z.array(z.enum(['totp', 'passkey'])).optional(),
});
export type AdminSignInResponse = z.infer<typeof AdminSignInResponse>;

/** A new, not yet confirmed TOTP secret: a QR code of its otpauth:// URI and the secret as text. */
export const EnrolmentResponse = z.strictObject({
  /** Base32, as authenticator apps take it typed in. */
  secret: z.string(),
  uri: z.string(),
  /** `data:image/svg+xml;base64,…` of the QR code (made on the server, no network). */
  qr: z.string(),
  /** Whether the admin may skip setting it up (ADMIN_MFA=optional). */
  optional: z.boolean(),
});
export type EnrolmentResponse = z.infer<typeof EnrolmentResponse>;

/** Shown once: the recovery codes in clear (the server keeps only their HMACs). */
export const RecoveryCodesResponse = MessageResponse.extend({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

/**
 * The app set up: as the first factor, with the recovery codes (shown once); beside passkeys, the
 * codes that came with them stay valid and none are given.
 */
export const AppEnrolledResponse = RecoveryCodesResponse.partial({ recoveryCodes: true });
export type AppEnrolledResponse = z.infer<typeof AppEnrolledResponse>;

export const MfaStatusResponse = z.strictObject({
  enrolled: z.boolean(),
  required: z.boolean(),
  /** Whether the admin holds an authenticator app (TOTP): its code proves the factor again. */
  app: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** How many passkeys the admin holds (a second factor beside, or instead of, the app). */
  passkeys: z.number().int(),
  /** Until when the session's last proof of the factor counts as fresh (null: not fresh). */
  freshUntil: IsoTime.nullable(),
});
export type MfaStatusResponse = z.infer<typeof MfaStatusResponse>;

export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Please enter your current password.').max(PASSWORD_MAX_LENGTH),
  newPassword: NewPassword,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const AdminSessionsResponse = z.strictObject({
  sessions: z.array(
    z.strictObject({
      id: z.string(),
      createdAt: IsoTime,
      lastSeenAt: IsoTime.nullable(),
      /** The address and browser (User-Agent) the session was started from; null for sessions older than this list. */
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
});
export type AdminSessionsResponse = z.infer<typeof AdminSessionsResponse>;

/** Base64url (WebAuthn's JSON encoding of bytes), bounded. */
const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'expected base64url');

/** A passkey's name as the admin gave it ("Laptop", "YubiKey"). */
export const PasskeyName = z
  .string()
  .trim()
  .min(1, 'Please name the passkey.')
  .max(60, 'Please keep the name under 60 characters.');

/** What the browser's navigator.credentials.create() gave, as JSON (@simplewebauthn/browser's RegistrationResponseJSON). */
export const PasskeyRegistration = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(16_384),
    attestationObject: base64url(65_536),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

/** What navigator.credentials.get() gave, as JSON (AuthenticationResponseJSON). */
export const PasskeyAssertion = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(16_384),
    authenticatorData: base64url(16_384),
    signature: base64url(16_384),
    userHandle: base64url(256).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

export const PasskeyRegistrationBody = z.object({
  name: PasskeyName.default('Passkey'),
  credential: PasskeyRegistration,
});
export const PasskeyAssertionBody = z.object({ credential: PasskeyAssertion });

/** The options the browser's WebAuthn call takes (made by @simplewebauthn/server), its challenge bound to the session. */
export const PasskeyOptionsResponse = z.strictObject({
  options: z.looseObject({ challenge: z.string() }),
});
export type PasskeyOptionsResponse = z.infer<typeof PasskeyOptionsResponse>;

export const Passkey = z.strictObject({
  id: z.string(),
  name: z.string(),
  createdAt: IsoTime,
  lastUsedAt: IsoTime.nullable(),
});
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyListResponse = z.strictObject({ passkeys: z.array(Passkey) });
export type PasskeyListResponse = z.infer<typeof PasskeyListResponse>;

/** A passkey added; set up as the first factor (the `enrol` step), also the recovery codes, shown once. */
export const PasskeyAddedResponse = AppEnrolledResponse.extend({ passkey: Passkey });
export type PasskeyAddedResponse = z.infer<typeof PasskeyAddedResponse>;

export const PasskeyIdParam = z.object({ passkeyId: z.uuid('Unknown passkey.') });
