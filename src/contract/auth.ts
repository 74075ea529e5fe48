import { z } from 'zod';
import { OTP_LENGTH, PASSWORD_MAX_LENGTH } from './constants';
import { validation } from './messages';
import { PASSWORD_PATTERN } from './password';

const login = z.string().trim().min(1, 'Please enter your username or e-mail.').max(254);
/** Sign-in never validates the password's shape: old passwords may predate today's rule. */
const anyPassword = z.string().min(1, 'Please enter your password.').max(PASSWORD_MAX_LENGTH);

export const SignInBody = z.object({ username: login, password: anyPassword });
export type SignInBody = z.infer<typeof SignInBody>;

export const NewPassword = z.string().regex(PASSWORD_PATTERN, validation.password);

export const Otp = z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), validation.otp);

/** With a session, the user is the session's; without one (forgot password), `username` names them. */
export const ResetPasswordBody = z.object({
  otp: Otp,
  newpassword: NewPassword,
  username: login.optional(),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const ForgotPasswordBody = z.object({ username: login });

export const MessageResponse = z.strictObject({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const AuthCheckResponse = z.strictObject({
  valid: z.boolean(),
  role: z.enum(['admin', 'student', 'instructor']).optional(),
  firstlogin: z.boolean().optional(),
});
export type AuthCheckResponse = z.infer<typeof AuthCheckResponse>;

/**
 * Whether a staff member is signed in; with them, their role and, for an instructor, the ids of the
 * courses they teach (the back office shows them only what they may use).
 */
export const AdminCheckResponse = z.strictObject({
  valid: z.boolean(),
  role: z.enum(['admin', 'instructor']).optional(),
  courseIds: z.array(z.string()).optional(),
});
export type AdminCheckResponse = z.infer<typeof AdminCheckResponse>;

/** An ISO timestamp as the API writes it (`Date.toISOString()`). */
export const IsoTime = z.iso.datetime();

export const ServerTimeResponse = z.strictObject({
  hour: z.number().int().min(0).max(23),
  open: z.boolean(),
  /** ISO time the student surface next opens; null while open or when always open. */
  opensAt: IsoTime.nullable(),
  /** ISO time it next closes; null while closed or when always open. */
  closesAt: IsoTime.nullable(),
  timeZone: z.string(),
  /** Opening hours as [from, to) hours of the day, or null when always open. */
  hours: z.tuple([z.number(), z.number()]).nullable(),
});
export type ServerTimeResponse = z.infer<typeof ServerTimeResponse>;

export const OtpSentResponse = MessageResponse.extend({
  /** Seconds until another code may be requested. */
  retryAfter: z.number().int(),
});
export type OtpSentResponse = z.infer<typeof OtpSentResponse>;
