import { expect } from 'vitest';
import { createStudent } from '../../src/server/accounts/users';
import { issueCertificateOnCompletion } from '../../src/server/certificates/service';
import { adminOnly, everyone, type MatrixState, type Row } from './matrix-kit';
import type { Role, World } from './world';

/**
 * Certificates (issue 39): `student` holds one of course A; a graduate outside the world (so the
 * public page, which shows a name by design, shows none of the world's people) holds another. Only
 * its student lists and downloads a certificate; anyone reads the public page and the status list;
 * only admins list, revoke and reissue.
 */
const studentOnly = (status: number) => ({
  anonymous: 401,
  student: status,
  firstLogin: 403,
  otherCourse: 200,
  revoked: 200,
  admin: 403,
  instructorOfThisCourse: 403,
  instructorOfAnotherCourse: 403,
});

/** Issues both certificates once, through the same function the completion hook calls. */
async function certificatesOf(world: World, state: MatrixState) {
  if (state.certificates) return state.certificates;
  const ctx = world.media.server.ctx;
  const mine = await issueCertificateOnCompletion(ctx, {
    userId: world.people.student.id,
    courseId: world.courseA,
  });
  const outsider = await createStudent(ctx.db, {
    rollno: 'MXG-7606',
    name: 'Graduate Outside',
    email: 'graduate.outside@school.test',
    username: 'goutside',
    password: 'Matrix@12345',
  });
  const graduate = await issueCertificateOnCompletion(ctx, { userId: outsider.id, courseId: world.courseB });
  state.certificates = {
    mine: { id: mine.id, serial: mine.serial },
    graduate: { id: graduate.id, serial: graduate.serial },
  };
  return state.certificates;
}

export const certificateRows: Row[] = [
  {
    route: 'GET /api/certificates',
    cases: [
      {
        request: async (world, _role, state) => {
          await certificatesOf(world, state);
          return { method: 'GET', path: '/api/certificates' };
        },
        expect: studentOnly(200),
        check: (reply, role: Role, _world, state) => {
          const serials = (reply.json?.certificates ?? []).map((c: { serial: string }) => c.serial);
          expect(serials).toEqual(role === 'student' ? [state.certificates!.mine.serial] : []);
        },
      },
    ],
  },
  {
    route: 'GET /api/certificates/:certificateId/pdf',
    cases: [
      {
        request: async (world, _role, state) => ({
          method: 'GET',
          path: `/api/certificates/${(await certificatesOf(world, state)).mine.id}/pdf`,
        }),
        // Another student's certificate is a 404, as an unknown one.
        expect: { ...studentOnly(200), otherCourse: 404, revoked: 404 },
        check: (reply, role) => {
          if (role === 'student') expect(reply.text.startsWith('%PDF-')).toBe(true);
        },
      },
    ],
  },
  {
    route: 'GET /api/public/certificates/:serial',
    public: 'the verification page an employer opens from the QR code; the serial is the capability',
    cases: [
      {
        request: async (world, _role, state) => ({
          method: 'GET',
          path: `/api/public/certificates/${(await certificatesOf(world, state)).graduate.serial}`,
        }),
        expect: everyone(200),
        check: (reply) => expect(reply.json).toMatchObject({ status: 'valid', name: 'Graduate Outside' }),
      },
    ],
  },
  {
    route: 'GET /credentials/status/:listId',
    public: 'the W3C Bitstring Status List credential any verifier fetches',
    cases: [
      {
        request: () => ({ method: 'GET', path: '/credentials/status/1' }),
        expect: everyone(200),
        check: (reply) =>
          expect(reply.json.type).toEqual(['VerifiableCredential', 'BitstringStatusListCredential']),
      },
    ],
  },
  {
    route: 'GET /api/admin/certificates',
    cases: [{ request: () => ({ method: 'GET', path: '/api/admin/certificates' }), expect: adminOnly(200) }],
  },
  {
    route: 'POST /api/admin/certificates/:certificateId/reissue',
    cases: [
      {
        request: async (world, _role, state) => ({
          method: 'POST',
          path: `/api/admin/certificates/${(await certificatesOf(world, state)).graduate.id}/reissue`,
        }),
        expect: adminOnly(201),
      },
    ],
  },
  {
    route: 'POST /api/admin/certificates/:certificateId/revoke',
    cases: [
      {
        // The graduate's first certificate was revoked by the reissue: a second revoke is a 409.
        request: async (world, _role, state) => ({
          method: 'POST',
          path: `/api/admin/certificates/${(await certificatesOf(world, state)).graduate.id}/revoke`,
          json: { reason: 'Matrix check' },
        }),
        expect: adminOnly(409),
      },
    ],
  },
];
