import { z } from 'zod';
import { IsoTime, MessageResponse } from './auth';
import { boundedText } from './fields';
import { REVOKE_REASON_MAX_CHARS, certificateMessages } from './certificate-messages';

/**
 * Certificates of completion (issue 39): a PDF and an Open Badges 3.0 credential per student and
 * course, checked by anyone at `/verify/:serial` without signing in.
 */

/** `LEC-` and three groups of four Crockford base-32 characters (60 random bits). */
export const SERIAL_PATTERN = /^LEC(?:-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
/** Lookups of the public page's JSON per client address and minute; more are answered 429. */
export const PUBLIC_LOOKUPS_PER_MINUTE = 30;
export { REVOKE_REASON_MAX_CHARS, certificateMessages } from './certificate-messages';

export type CertificateStatus = 'valid' | 'revoked';
const Status = z.enum(['valid', 'revoked']);

export const CertificateIdParam = z.object({ certificateId: z.uuid(certificateMessages.notFound) });
export const SerialParam = z.object({
  serial: z.string().max(40).regex(SERIAL_PATTERN, certificateMessages.serialInvalid),
});
export const StatusListParam = z.object({
  listId: z.string().regex(/^[1-9][0-9]{0,8}$/, certificateMessages.statusListNotFound),
});

export const RevokeBody = z.strictObject({
  reason: boundedText(REVOKE_REASON_MAX_CHARS, certificateMessages.reasonInvalid),
});

/** A JSON-LD document as signed: its shape is the Open Badges 3.0 and VC 2.0 specifications'. */
const Credential = z.record(z.string(), z.unknown());

/** What every view of a certificate names: its serial, the course and batch, when it was issued, and whether it stands. */
const certificateFields = {
  serial: z.string(),
  course: z.string(),
  batch: z.number().int(),
  issuedAt: IsoTime,
  status: Status,
  revokedReason: z.string().optional(),
};
/** The date as the PDF prints it (certificateDate in the school's time zone). */
const issuedOn = z.string();

/** One of the student's own certificates (GET /api/certificates). */
export const StudentCertificate = z.strictObject({
  _id: z.string(),
  ...certificateFields,
  issuedOn,
  verifyUrl: z.string(),
});
export type StudentCertificate = z.infer<typeof StudentCertificate>;
export const StudentCertificatesResponse = z.strictObject({ certificates: z.array(StudentCertificate) });

/** What the public verification page shows: every field the PDF prints, and the signed credential. */
export const PublicCertificate = z.strictObject({
  ...certificateFields,
  name: z.string(),
  rollno: z.string(),
  issuedOn,
  credential: Credential,
});
export type PublicCertificate = z.infer<typeof PublicCertificate>;

export const AdminCertificate = z.strictObject({
  _id: z.string(),
  ...certificateFields,
  studentId: z.string(),
  name: z.string(),
  rollno: z.string(),
  courseId: z.string(),
  revokedAt: IsoTime.optional(),
});
export type AdminCertificate = z.infer<typeof AdminCertificate>;
export const AdminCertificatesResponse = z.strictObject({ certificates: z.array(AdminCertificate) });
export const CertificateSavedResponse = MessageResponse.extend({ certificate: AdminCertificate });

/** The W3C Bitstring Status List credential (`/credentials/status/:listId`). */
export const StatusListCredential = Credential;

/** The date a certificate prints, in the school's time zone ("2 March 2026"): the PDF and the page alike. */
export function certificateDate(issuedAt: string | Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  }).format(new Date(issuedAt));
}
