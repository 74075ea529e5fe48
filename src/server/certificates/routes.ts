import type { FastifyPluginAsync } from 'fastify';
import { certificateDate, certificateMessages, PUBLIC_LOOKUPS_PER_MINUTE } from '../../contract/certificates';
import type { AppContext } from '../context';
import { tooManyRequests } from '../errors';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { certificatePdf } from './pdf';
import {
  allCertificates,
  ownCertificate,
  publicCertificate,
  reissueCertificate,
  revokeCertificate,
  statusListDocument,
  studentCertificates,
  verifyUrlOf,
} from './service';

const MINUTE_MS = 60_000;
/** PDFs made per student a minute: each costs a font subset and a QR code. */
const PDFS_PER_MINUTE = 20;

/** Counts first, then refuses past `max`: a burst cannot slip in before the count catches up. */
async function limit(ctx: AppContext, key: string, max: number, message: string) {
  const hit = await ctx.rateCounter.hit(key, MINUTE_MS);
  if (hit.count > max) throw tooManyRequests(message, Math.ceil(hit.resetInMs / 1000));
}

/** The student's own certificates (inside the student API's opening hours). */
export const certificateStudentRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /api/certificates': async ({ session }) => ({
      certificates: await studentCertificates(ctx, session.user.id),
    }),
    'GET /api/certificates/:certificateId/pdf': async ({ session, params, reply }) => {
      const row = await ownCertificate(ctx, session.user.id, params.certificateId);
      await limit(
        ctx,
        `certificate-pdf:${session.user.id}`,
        PDFS_PER_MINUTE,
        certificateMessages.tooManyLookups,
      );
      const pdf = await certificatePdf({
        school: ctx.config.productName,
        name: row.name,
        rollno: row.rollno,
        course: row.courseName,
        batch: row.batch,
        issuedOn: certificateDate(row.issuedAt, ctx.config.openTimeZone),
        serial: row.serial,
        verifyUrl: verifyUrlOf(ctx, row.serial),
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="certificate-${row.serial}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  });
};

/** Staff: every certificate, revoking (audited) and reissuing. Admins only. */
export const certificateAdminRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /api/admin/certificates': async () => ({ certificates: await allCertificates(ctx) }),
    'POST /api/admin/certificates/:certificateId/revoke': async ({ session, params, body }) => ({
      message: certificateMessages.revoked,
      certificate: await revokeCertificate(ctx, params.certificateId, {
        reason: body.reason,
        actorId: session.user.id,
      }),
    }),
    'POST /api/admin/certificates/:certificateId/reissue': async ({ session, params }) => ({
      message: certificateMessages.reissued,
      certificate: await reissueCertificate(ctx, params.certificateId, session.user.id),
    }),
  });
};

/**
 * Anyone's: the verification page's data and the status list. Outside the student API's gate, so
 * they answer at any hour; the lookup is limited per client address.
 */
export const certificatePublicRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /api/public/certificates/:serial': async ({ params, request, reply }) => {
      await limit(
        ctx,
        `certificate-lookup:${request.ip}`,
        PUBLIC_LOOKUPS_PER_MINUTE,
        certificateMessages.tooManyLookups,
      );
      reply.header('cache-control', 'no-store');
      return publicCertificate(ctx, params.serial);
    },
    'GET /credentials/status/:listId': async ({ params, reply }) => {
      const document = await statusListDocument(ctx, Number(params.listId));
      // Read fresh by every verifier: a revocation shows at once (this process keeps the signed copy).
      reply.header('cache-control', 'no-store').header('access-control-allow-origin', '*');
      return document;
    },
  });
};
