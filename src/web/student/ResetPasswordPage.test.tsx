import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { fakeServer, renderRoute, type FakeRoutes } from '../test-utils';
import ResetPasswordPage from './ResetPasswordPage';

const PASSWORD_RULE =
  'Password must have at least 1 uppercase, 1 lowercase, 1 number, 1 special character, and be 8+ chars long.';

const firstLoginSession: FakeRoutes = {
  'GET /api/auth/check': () => ({ body: { valid: true, role: 'student', firstlogin: true } }),
};

const signInPage: RouteObject = { path: '/', element: <p>sign-in page</p> };

function renderReset(url = '/reset-password', signIn = signInPage) {
  return renderRoute(<ResetPasswordPage />, { path: '/reset-password', url, extra: [signIn] });
}

async function typeCode(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.click(screen.getByLabelText('OTP digit 1 of 6'));
  await user.keyboard(code);
}

afterEach(() => {
  vi.useRealTimers();
});

/** Fills the reset form with `code` and a valid new password, and sends it. */
async function submitReset(code: string, signIn = signInPage) {
  const user = userEvent.setup();
  renderReset(undefined, signIn);
  await screen.findByLabelText('New password');
  await typeCode(user, code);
  await user.type(screen.getByLabelText('New password'), 'Better@Pass1');
  await user.type(screen.getByLabelText('Confirm password'), 'Better@Pass1');
  await user.click(screen.getByRole('button', { name: 'Reset Password' }));
  return user;
}

describe('reset password form', () => {
  it('shows the password rule and the mismatch live, and enables Reset only when all is right', async () => {
    fakeServer(firstLoginSession);
    const user = userEvent.setup();
    renderReset();
    expect(screen.getByRole('heading', { name: 'Reset Your Password' })).toBeInTheDocument();
    const reset = await screen.findByRole('button', { name: 'Reset Password' });
    expect(reset).toBeDisabled();

    await typeCode(user, '12345');
    const password = screen.getByLabelText('New password');
    await user.type(password, 'password1');
    expect(screen.getByText(PASSWORD_RULE)).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, 'Better@Pass1');
    expect(screen.queryByText(PASSWORD_RULE)).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Confirm password'), 'Better@Pass');
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Confirm password'), '1');
    expect(screen.queryByText('Passwords do not match.')).not.toBeInTheDocument();
    expect(reset).toBeDisabled(); // five digits only
    await typeCode(user, '123456');
    expect(reset).toBeEnabled();
  });

  it('refuses characters outside the rule (a space) even with every class present', async () => {
    fakeServer(firstLoginSession);
    const user = userEvent.setup();
    renderReset();
    await user.type(await screen.findByLabelText('New password'), 'Good Pass@1');
    expect(screen.getByText(PASSWORD_RULE)).toBeInTheDocument();
  });

  it('sends the code and the new password, then goes to sign-in', async () => {
    const server = fakeServer({
      ...firstLoginSession,
      'POST /api/password/reset': () => ({
        body: { message: 'Password reset successful! Please sign in with your new password.' },
      }),
    });
    await submitReset('654321');
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(
      screen.getByText('Password reset successful! Please sign in with your new password.'),
    ).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/password/reset')?.body).toEqual({
      otp: '654321',
      newpassword: 'Better@Pass1',
    });
  });

  it('shows no form while sign-in is on its way after the reset', async () => {
    fakeServer({
      ...firstLoginSession,
      'POST /api/password/reset': () => ({ body: { message: 'Password reset successful!' } }),
    });
    let release!: () => void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    await submitReset('654321', {
      path: '/',
      lazy: async () => {
        await loaded;
        return { element: <p>sign-in page</p> };
      },
    });
    expect(await screen.findByText('Password reset successful!')).toBeInTheDocument();
    // The session is over, the sign-in page still loading: no "Forgot password?" form to type into.
    expect(screen.getByLabelText('Taking you to sign in')).toBeInTheDocument();
    expect(screen.queryByLabelText('Username or e-mail')).toBeNull();
    expect(screen.queryByText(/Your session has ended/)).toBeNull();
    release();
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
  });

  it("shows the server's reason when the reset fails, else 'Reset failed!'", async () => {
    let answer = { status: 400, body: { message: 'Invalid or expired code.' } as object };
    fakeServer({ ...firstLoginSession, 'POST /api/password/reset': () => answer });
    const user = await submitReset('111111');
    expect(await screen.findByText('Invalid or expired code.')).toBeInTheDocument();
    answer = { status: 500, body: {} };
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Reset failed!')).toBeInTheDocument();
  });

  it('counts down from 60 s; Resend OTP waits for 0, then sends and restarts the count', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const server = fakeServer({
      ...firstLoginSession,
      'POST /api/otp/send': () => ({ body: { message: 'sent', retryAfter: 60 } }),
    });
    const user = userEvent.setup();
    renderReset();
    expect(await screen.findByText('Time left: 60s')).toBeInTheDocument();
    const resend = screen.getByRole('button', { name: 'Resend OTP' });
    expect(resend).toBeDisabled();

    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByText('Time left: 59s')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(58_000));
    expect(screen.getByText('Time left: 1s')).toBeInTheDocument();
    expect(resend).toBeDisabled();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByText('Time left: 0s')).toBeInTheDocument();
    expect(resend).toBeEnabled();

    await user.click(resend);
    expect(await screen.findByText('OTP resent successfully!')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path === '/api/otp/send')).toHaveLength(1);
    expect(screen.getByText('Time left: 60s')).toBeInTheDocument();
    expect(resend).toBeDisabled();
  });

  it.each([
    [502, {}],
    [429, { message: 'Please wait a minute before asking for another code.' }],
  ])(
    "says exactly 'Failed to resend OTP' when sending fails (%i), whatever the server says",
    async (status, body) => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
      fakeServer({ ...firstLoginSession, 'POST /api/otp/send': () => ({ status, body }) });
      const user = userEvent.setup();
      renderReset();
      await screen.findByText('Time left: 60s');
      act(() => vi.advanceTimersByTime(60_000));
      await user.click(screen.getByRole('button', { name: 'Resend OTP' }));
      expect(await screen.findByText('Failed to resend OTP')).toBeInTheDocument();
      expect(
        screen.queryByText('Please wait a minute before asking for another code.'),
      ).not.toBeInTheDocument();
    },
  );
});

describe('forgot password', () => {
  it('asks whom to mail, then resets by username without a session', async () => {
    const server = fakeServer({
      'GET /api/auth/check': () => ({ body: { valid: false } }),
      'POST /api/password/forgot': () => ({
        body: { message: 'If that account exists, a one-time code has been sent to its e-mail.' },
      }),
      'POST /api/password/reset': () => ({ body: { message: 'Password reset successful!' } }),
    });
    const user = userEvent.setup();
    renderReset('/reset-password?forgot=1');
    await user.type(await screen.findByLabelText('Username or e-mail'), 'asha@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Time left: 60s')).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/password/forgot')?.body).toEqual({
      username: 'asha@example.com',
    });

    await typeCode(user, '222333');
    await user.type(screen.getByLabelText('New password'), 'Better@Pass1');
    await user.type(screen.getByLabelText('Confirm password'), 'Better@Pass1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/password/reset')?.body).toEqual({
      username: 'asha@example.com',
      otp: '222333',
      newpassword: 'Better@Pass1',
    });
  });
});
