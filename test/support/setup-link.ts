/** The token of the one-time set-up link in a mail to a staff member (`…/adminsetup#<token>`). */
export function setupLinkToken(text: string): string {
  const token = /\/adminsetup#([\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no set-up link in the mail');
  return token;
}
