import type { SecurityAction } from '../audit/security-events';
import { personalMail } from '../accounts/mails';
import type { Mail } from '../mail/mailer';

/** The changes to how a staff member signs in that they are told about (their audit actions). */
export type SignInChange = Extract<
  SecurityAction,
  | 'mfa.enrolled'
  | 'mfa.passkey-added'
  | 'mfa.passkey-removed'
  | 'mfa.recovery-renewed'
  | 'session.others-ended'
>;

const WHAT_CHANGED: Record<SignInChange, string> = {
  'mfa.enrolled': 'An authenticator app was set up for your two-step sign-in.',
  'mfa.passkey-added': 'A passkey was added to your two-step sign-in.',
  'mfa.passkey-removed': 'A passkey was removed from your two-step sign-in.',
  'mfa.recovery-renewed': 'New recovery codes were made; the old ones no longer work.',
  'session.others-ended': 'Your other sessions were signed out.',
};

/**
 * Tells a staff member that how they sign in changed, when and from where: a change they did not
 * make means someone else holds their password and a session.
 */
export function signInChangedMail(
  productName: string,
  staff: { email: string; name: string; username: string },
  change: SignInChange,
  at: Date,
  ip: string,
): Mail {
  const sessionsOnly = change === 'session.others-ended';
  const when = `${at.toISOString().slice(0, 10)} at ${at.toISOString().slice(11, 16)} UTC`;
  const subject = sessionsOnly ? 'your other sessions were signed out' : 'your two-step sign-in changed';
  return personalMail(staff, `${productName}: ${subject}`, [
    `This changed on your ${productName} account ${staff.username} on ${when}, from the address ${ip}:`,
    '',
    `  ${WHAT_CHANGED[change]}`,
    ...(sessionsOnly ? [] : ['  Your other sessions were signed out.']),
    '',
    'If this was you, there is nothing to do. If it was not, someone knows your password and was',
    'signed in as you: tell an administrator at once, who can end every session and second factor',
    `of the account (npm run cli -- mfa:reset --username ${staff.username}).`,
  ]);
}
