import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { certificateMessages, type StudentCertificate } from '../../contract/certificates';
import { fakeServer, renderRoute } from '../test-utils';
import { CertificatesList } from './CertificatesList';

const certificate = (overrides: Partial<StudentCertificate>): StudentCertificate => ({
  _id: '6a0f6c1e-0000-4000-8000-000000000001',
  serial: 'LEC-J5FK-EA42-4YTX',
  course: 'Rust from zero',
  batch: 7,
  issuedAt: '2026-03-02T08:00:00.000Z',
  issuedOn: '2 March 2026',
  status: 'valid',
  verifyUrl: 'https://school.test/verify/LEC-J5FK-EA42-4YTX',
  ...overrides,
});

describe('the dashboard’s certificates', () => {
  it('lists each with its PDF download and verification page, and says when one was revoked', async () => {
    fakeServer({
      'GET /api/certificates': () => ({
        body: {
          certificates: [
            certificate({}),
            certificate({
              _id: '6a0f6c1e-0000-4000-8000-000000000002',
              serial: 'LEC-4N2D-W1E8-2MAM',
              course: 'Go in practice',
              status: 'revoked',
              revokedReason: 'Issued to the wrong batch',
            }),
          ],
        },
      }),
    });
    renderRoute(<CertificatesList />, { path: '/dashboard' });
    const download = await screen.findByRole('link', {
      name: 'Download the certificate of Rust from zero (PDF)',
    });
    expect(download).toHaveAttribute('href', '/api/certificates/6a0f6c1e-0000-4000-8000-000000000001/pdf');
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Batch 7 · issued 2 March 2026 · LEC-J5FK-EA42-4YTX');
    expect(within(items[0]!).getByRole('link', { name: 'Verification page' })).toHaveAttribute(
      'href',
      'https://school.test/verify/LEC-J5FK-EA42-4YTX',
    );
    expect(items[1]).toHaveTextContent('RevokedIssued to the wrong batch');
  });

  it('says how to earn one when there is none', async () => {
    fakeServer({ 'GET /api/certificates': () => ({ body: { certificates: [] } }) });
    renderRoute(<CertificatesList />, { path: '/dashboard' });
    expect(await screen.findByText(certificateMessages.empty)).toBeInTheDocument();
  });

  it('offers another try after a failed load', async () => {
    fakeServer({ 'GET /api/certificates': () => ({ status: 500, body: { message: 'Internal error' } }) });
    renderRoute(<CertificatesList />, { path: '/dashboard' });
    expect(await screen.findByText(certificateMessages.listFailed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try loading the certificates again' })).toBeInTheDocument();
  });
});
