import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminStudent } from '../../../contract/admin-students';
import { adminMessages, serverMessages } from '../../../contract/messages';
import { fakeServer, renderRoute, type FakeRoutes } from '../../test-utils';
import { ResendPasswordModal } from '../students/ResendPasswordModal';
import AccountPage from './AccountPage';
import { FreshFactorPrompt } from './FreshFactorPrompt';

beforeEach(() => notifications.clean());

const stale = { status: 403, body: { message: serverMessages.mfaFreshFactor } };
const codes = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);

/** The account page with the layout's prompt, the factor stale until a verify takes `right`. */
function school(right: string, extra: FakeRoutes = {}) {
  let fresh = false;
  const server = fakeServer({
    'GET /api/admin/mfa': () => ({
      body: {
        enrolled: true,
        app: true,
        required: true,
        recoveryCodesLeft: 7,
        passkeys: 0,
        freshUntil: null,
      },
    }),
    'GET /api/admin/sessions': () => ({ body: { sessions: [] } }),
    'POST /api/admin/mfa/verify': (init) => {
      const { code } = JSON.parse(String(init?.body)) as { code: string };
      if (code !== right) return { status: 401, body: { message: serverMessages.mfaCodeWrong } };
      fresh = true;
      return { body: { message: serverMessages.mfaConfirmed } };
    },
    'POST /api/admin/mfa/recovery-codes': () =>
      fresh ? { body: { message: serverMessages.recoveryCodesRenewed, recoveryCodes: codes } } : stale,
    ...extra,
  });
  renderRoute(
    <>
      <AccountPage />
      <FreshFactorPrompt />
    </>,
  );
  const sent = (path: string) => server.calls.filter((c) => c.path === path);
  return { server, sent };
}

/** The school above, after Make new recovery codes was refused and the prompt opened. */
async function promptedOnRenew(right: string, extra: FakeRoutes = {}) {
  const user = userEvent.setup();
  const { sent } = school(right, extra);
  await user.click(await screen.findByRole('button', { name: 'Make new recovery codes' }));
  const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
  return { user, sent, dialog };
}

describe("Confirm it's you: a sensitive action refused for a stale second factor", () => {
  it('asks for the code, says when it is wrong, then sends the refused request once more', async () => {
    const { user, sent, dialog } = await promptedOnRenew('123456');
    const field = within(dialog).getByRole('textbox', { name: 'Authentication code' });
    await waitFor(() => expect(field).toHaveFocus());
    await user.type(field, '654321{Enter}');
    expect(await within(dialog).findByText(serverMessages.mfaCodeWrong)).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(serverMessages.mfaCodeWrong);
    expect(sent('/api/admin/mfa/recovery-codes')).toHaveLength(1);

    await user.clear(field);
    await user.type(field, '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByTestId('recovery-codes')).toHaveTextContent(codes[0]!);
    expect(sent('/api/admin/mfa/verify').map((c) => c.body)).toEqual([
      { code: '654321' },
      { code: '123456' },
    ]);
    expect(sent('/api/admin/mfa/recovery-codes')).toHaveLength(2);
  });

  it('takes a recovery code instead of the app', async () => {
    const { user, sent, dialog } = await promptedOnRenew('abcde-fghij');
    await user.click(within(dialog).getByRole('button', { name: 'Use a recovery code' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Recovery code' }), 'abcde-fghij{Enter}');
    expect(await screen.findByTestId('recovery-codes')).toBeInTheDocument();
    expect(sent('/api/admin/mfa/verify').map((c) => c.body)).toEqual([{ code: 'abcde-fghij' }]);
  });

  it('Cancel gives the refusal back to the screen, and sends nothing more', async () => {
    const { user, sent, dialog } = await promptedOnRenew('123456');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(serverMessages.mfaFreshFactor)).toHaveAttribute('role', 'alert');
    expect(
      await screen.findByText('Could not make new recovery codes.', {
        selector: '.mantine-Notification-description',
      }),
    ).toBeInTheDocument();
    expect(sent('/api/admin/mfa/verify')).toHaveLength(0);
    expect(sent('/api/admin/mfa/recovery-codes')).toHaveLength(1);
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();
  });

  it('a route refused again after the code is not retried a second time', async () => {
    const { user, sent, dialog } = await promptedOnRenew('123456', {
      'POST /api/admin/mfa/recovery-codes': () => stale,
    });
    await user.type(within(dialog).getByRole('textbox', { name: 'Authentication code' }), '123456{Enter}');
    expect(await screen.findByText(serverMessages.mfaFreshFactor)).toHaveAttribute('role', 'alert');
    expect(sent('/api/admin/mfa/recovery-codes')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('signing out the other sessions asks for it over the confirmation, then signs them out', async () => {
    const user = userEvent.setup();
    let fresh = false;
    const session = (id: string, current: boolean) => ({
      id,
      createdAt: '2026-03-02T08:00:00.000Z',
      lastSeenAt: '2026-03-02T08:05:00.000Z',
      ip: '127.0.0.1',
      userAgent: null,
      current,
    });
    const { sent } = school('123456', {
      'POST /api/admin/mfa/verify': () => {
        fresh = true;
        return { body: { message: serverMessages.mfaConfirmed } };
      },
      'GET /api/admin/sessions': () => ({
        body: { sessions: fresh ? [session('a', true)] : [session('a', true), session('b', false)] },
      }),
      'POST /api/admin/sessions/end-others': () =>
        fresh ? { body: { message: serverMessages.otherSessionsEnded } } : stale,
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    const confirm = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.click(within(confirm).getByRole('button', { name: 'Sign out the others' }));
    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.type(within(prompt).getByRole('textbox', { name: 'Authentication code' }), '123456{Enter}');
    expect(
      await screen.findByText('Your other sessions were signed out.', {
        selector: '.mantine-Notification-description',
      }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent('/api/admin/sessions/end-others')).toHaveLength(2);
  });

  it("opens over the confirmation that asked for it (re-sending a student's password)", async () => {
    const user = userEvent.setup();
    let fresh = false;
    const server = fakeServer({
      'POST /api/admin/mfa/verify': () => {
        fresh = true;
        return { body: { message: serverMessages.mfaConfirmed } };
      },
      'POST /api/admin/students/s1/password': () =>
        fresh ? { body: { message: adminMessages.passwordResent } } : stale,
    });
    const student = { _id: 's1', name: 'Asha Rao', email: 'asha@example.test' } as AdminStudent;
    let closed = false;
    renderRoute(
      <>
        <ResendPasswordModal student={student} onClose={() => (closed = true)} />
        <FreshFactorPrompt />
      </>,
    );
    const confirm = await screen.findByRole('dialog', { name: 'Re-send initial password?' });
    await user.click(within(confirm).getByRole('button', { name: 'Re-send password' }));
    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    const layer = (dialog: HTMLElement) =>
      Number(getComputedStyle(dialog.closest('.mantine-Modal-root')!).getPropertyValue('--mb-z-index'));
    expect(layer(prompt)).toBeGreaterThan(layer(confirm));
    await user.type(within(prompt).getByRole('textbox', { name: 'Authentication code' }), '123456{Enter}');
    expect(
      await screen.findByText(adminMessages.passwordResent, {
        selector: '.mantine-Notification-description',
      }),
    ).toBeInTheDocument();
    expect(closed).toBe(true);
    // (the prompt also asks GET /api/admin/mfa which factors the admin holds)
    const sent = server.calls.filter((c) => c.method !== 'GET');
    expect(sent.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/admin/students/s1/password',
      'POST /api/admin/mfa/verify',
      'POST /api/admin/students/s1/password',
    ]);
  });
});
