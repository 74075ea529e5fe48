/**
 * What the certificate screens and routes say, without zod: the student's dashboard shows the list and
 * must not load the contract's schemas (its JavaScript budget, scripts/page-budget.ts).
 */
export const REVOKE_REASON_MAX_CHARS = 500;

export const certificateMessages = {
  notFound: 'Certificate not found.',
  statusListNotFound: 'Status list not found.',
  noEmail:
    'This student has no e-mail address: a certificate identifies its holder by their e-mail. Add one, then issue it again.',
  noRollno: 'This student has no roll number: a certificate prints it. Add one, then issue it again.',
  reasonInvalid: `Please give a reason (at most ${REVOKE_REASON_MAX_CHARS} characters).`,
  alreadyRevoked: 'This certificate is already revoked.',
  revoked: 'Certificate revoked.',
  reissued: 'Certificate reissued.',
  tooManyLookups: 'Too many certificate lookups. Please wait a minute.',
  serialInvalid: 'That is not a certificate serial.',
  loadFailed: 'Could not load the certificate.',
  listFailed: 'Could not load certificates.',
  empty: 'No certificates yet: finish every lecture of a course to get one.',
  adminEmpty: 'No certificates issued yet.',
  valid: 'Valid certificate',
  revokedTitle: 'Revoked certificate',
  confirmRevoke: 'Revoke this certificate?',
  reissueReason: 'Reissued',
} as const;
