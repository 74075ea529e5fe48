import { OTP_LIFETIME_MINUTES } from '../../contract/constants';
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

export function initialPasswordMail(
  productName: string,
  student: { email: string; name: string; username: string },
  password: string,
): Mail {
  return {
    to: student.email,
    subject: `Your ${productName} account`,
    text: [
      `Hello ${student.name},`,
      '',
      `An account has been created for you on ${productName}.`,
      `Username: ${student.username}`,
      `Initial password: ${password}`,
      '',
      'At your first sign-in you will be asked to choose a new password with a one-time code sent to this address.',
    ].join('\n'),
  };
}
