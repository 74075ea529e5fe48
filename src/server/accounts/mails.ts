import { OTP_LIFETIME_MINUTES, STAFF_SETUP_LINK_HOURS } from '../../contract/constants';
import type { Mail } from '../mail/mailer';

export function oneTimeCodeMail(productName: string, to: string, code: string): Mail {
  return {
    to,
    subject: `${productName} password reset code: ${code}`,
    text: [
      `Your ${productName} one-time code is ${code}.`,
      '',
      `It is valid for ${OTP_LIFETIME_MINUTES} minutes and can be used once. Enter it on the Reset Your Password screen.`,
      'If you did not ask for it, you can ignore this e-mail; your password has not changed.',
    ].join('\n'),
  };
}

/** A mail to one person by name: "Hello <name>," and the lines of `body`. */
export function personalMail(to: { email: string; name: string }, subject: string, body: string[]): Mail {
  return { to: to.email, subject, text: [`Hello ${to.name},`, '', ...body].join('\n') };
}

export function initialPasswordMail(
  productName: string,
  student: { email: string; name: string; username: string },
  password: string,
): Mail {
  return personalMail(student, `Your ${productName} account`, [
    `An account has been created for you on ${productName}.`,
    `Username: ${student.username}`,
    `Initial password: ${password}`,
    '',
    'At your first sign-in you will be asked to choose a new password with a one-time code sent to this address.',
  ]);
}

/**
 * One-time codes are paused for a student after a day's budget of wrong codes: the student learns
 * why, and every admin learns that someone may be guessing.
 */
export function codesFrozenMails(
  productName: string,
  student: { email: string; name: string; username: string },
  adminEmails: string[],
): Mail[] {
  const toStudent: Mail = {
    to: student.email,
    subject: `${productName}: password reset codes paused for your account`,
    text: [
      `Hello ${student.name},`,
      '',
      `Too many wrong one-time codes were entered for your ${productName} account today, so codes are paused for it until tomorrow.`,
      'If this was not you, someone may be trying to take over your account: your password has not changed.',
      'An administrator can lift the pause sooner.',
    ].join('\n'),
  };
  const toAdmins = adminEmails.map((to): Mail => ({
    to,
    subject: `${productName}: one-time codes paused for ${student.username}`,
    text: [
      `Too many wrong one-time codes were entered today for the student ${student.name} (${student.username}).`,
      'Codes are paused for this account until tomorrow; the audit log lists the attempts (code.failure) and their addresses.',
      `To lift the pause sooner: npm run cli -- unlock ${student.username}`,
    ].join('\n'),
  }));
  return [toStudent, ...toAdmins];
}

/** The one-time link a staff member sets their account up with (a new password, then the second factor). */
export function staffSetupMail(
  productName: string,
  link: string,
  staff: { email: string; name: string; username: string },
): Mail {
  return personalMail(staff, `Set up your ${productName} account`, [
    `Your ${productName} staff account ${staff.username} is waiting for you to set it up. Open this link`,
    'to choose a password and set up how you sign in:',
    '',
    `  ${link}`,
    '',
    `The link works once, within ${STAFF_SETUP_LINK_HOURS} hours. Until you use it, your account cannot be signed in to.`,
    'If you did not expect this e-mail, tell an administrator.',
  ]);
}
