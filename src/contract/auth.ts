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

export interface MessageResponse {
  message: string;
}

export interface AuthCheckResponse {
  valid: boolean;
  role?: 'admin' | 'student';
  firstlogin?: boolean;
}

export interface AdminCheckResponse {
  valid: boolean;
}

export interface ServerTimeResponse {
  hour: number;
  open: boolean;
  /** ISO time the student surface next opens; null while open or when always open. */
  opensAt: string | null;
  /** ISO time it next closes; null while closed or when always open. */
  closesAt: string | null;
  timeZone: string;
  /** Opening hours as [from, to) hours of the day, or null when always open. */
  hours: [number, number] | null;
}

export interface OtpSentResponse extends MessageResponse {
  /** Seconds until another code may be requested. */
  retryAfter: number;
}
