import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { serverMessages } from '../../../contract/messages';
import { fakeServer, renderRoute } from '../../test-utils';
import SetupPage from './SetupPage';

const enrolment = {
  secret: 'JBSWY3DPEHPK3PXP',
  uri: 'otpauth://totp/x',
  qr: 'data:image/svg+xml;base64,',
  optional: false,
};

/** The set-up page opened from the mailed link `/adminsetup#<hash>`. */
function openLink(hash: string) {
  window.history.replaceState(null, '', `/adminsetup${hash}`);
  const server = fakeServer({
    'POST /api/admin/setup': (init) => {
      const { token } = JSON.parse(String(init?.body)) as { token: string };
      if (token !== 'link-token')
        return { status: 401, body: { message: serverMessages.staffSetupLinkDead } };
      return { body: { message: serverMessages.staffSetupDone, next: 'enrol' } };
    },
    'POST /api/admin/mfa/enrolment': () => ({ body: enrolment }),
  });
  renderRoute(<SetupPage />, { path: '/adminsetup' });
  return server;
}

async function choosePassword(password: string) {
  const user = userEvent.setup();
  const form = await screen.findByRole('form', { name: 'Choose your password' });
  await user.type(within(form).getByLabelText('New password'), password);
  await user.type(within(form).getByLabelText('Confirm new password'), password);
  await user.click(within(form).getByRole('button', { name: 'Set password' }));
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('the set-up link page', () => {
  it('takes the token from the link, sets the password, then sets up two-step sign-in', async () => {
    const server = openLink('#link-token');
    // The token leaves the address bar (and the history) at once.
    expect(window.location.hash).toBe('');
    await choosePassword('Owner@12345');
    expect(await screen.findByRole('heading', { name: 'Set up two-step sign-in' })).toBeInTheDocument();
    const sent = server.calls.find((c) => c.path === '/api/admin/setup');
    expect(sent?.body).toEqual({ token: 'link-token', newPassword: 'Owner@12345' });
  });

  it('says when the link was used or expired', async () => {
    openLink('#old-token');
    await choosePassword('Owner@12345');
    expect(await screen.findByText(serverMessages.staffSetupLinkDead)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Set up two-step sign-in' })).toBeNull(),
    );
  });

  it('says when the link lost its token', async () => {
    openLink('');
    expect(await screen.findByRole('alert')).toHaveTextContent('Open the set-up link from the e-mail again');
    expect(screen.queryByRole('form')).toBeNull();
  });
});
