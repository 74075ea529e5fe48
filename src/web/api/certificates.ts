import { useQuery } from '@tanstack/react-query';
import { call, calling } from './client';

/** Query keys of certificates. */
export const certificateKeys = {
  mine: ['certificates', 'mine'] as const,
  public: (serial: string) => ['certificates', 'public', serial] as const,
  admin: ['certificates', 'admin'] as const,
};

/** GET /api/certificates: the student's own certificates, newest first. */
export function useMyCertificates() {
  return useQuery({
    queryKey: certificateKeys.mine,
    queryFn: calling('GET /api/certificates', {}, (r) => r.certificates),
  });
}

/** The PDF's URL (a download the browser saves). */
export const certificatePdfUrl = (certificateId: string) =>
  `/api/certificates/${encodeURIComponent(certificateId)}/pdf`;

/** GET /api/public/certificates/:serial: what the verification page shows (no sign-in). */
export function usePublicCertificate(serial: string) {
  return useQuery({
    queryKey: certificateKeys.public(serial),
    queryFn: calling('GET /api/public/certificates/:serial', { params: { serial } }),
    retry: false,
  });
}

/** GET /api/admin/certificates, with revoking (a reason) and reissuing. */
export function useAdminCertificates() {
  return useQuery({
    queryKey: certificateKeys.admin,
    queryFn: calling('GET /api/admin/certificates', {}, (r) => r.certificates),
  });
}

/** The staff's writes: revoking with a reason, reissuing. */
export const certificateApi = {
  revoke: (certificateId: string, reason: string) =>
    call('POST /api/admin/certificates/:certificateId/revoke', {
      params: { certificateId },
      body: { reason },
    }),
  reissue: (certificateId: string) =>
    call('POST /api/admin/certificates/:certificateId/reissue', { params: { certificateId } }),
};
