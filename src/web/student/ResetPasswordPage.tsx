import {
  Anchor,
  Button,
  Center,
  Group,
  Input,
  Loader,
  Paper,
  PinInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { OTP_LENGTH } from '../../contract/constants';
import { studentToasts } from '../../contract/messages';
import { ApiError, messageOf } from '../api/client';
import { sessionKeys, useAuthCheck } from '../api/session';
import { requestCode, resetPassword } from '../api/student';
import { useReplaceNavigate } from '../session/navigation';
import { Logo } from '../ui/Logo';
import { NewPasswordFields, useNewPassword } from '../ui/NewPasswordFields';
import { toast } from '../ui/toast';
import { useCountdown } from './use-countdown';
import { LoginInput } from '../ui/SignInCard';

/**
 * /reset-password: the first-login reset (the code was mailed at sign-in), or, from "Forgot
 * password?" without a session, the same form after asking whom to send the code to.
 */
export default function ResetPasswordPage() {
  const session = useAuthCheck();
  const [params] = useSearchParams();
  const firstLogin = session.data?.valid === true && session.data.firstlogin === true;
  const [forgotUser, setForgotUser] = useState<string | null>(null);
  // Reset: the session is over and sign-in is on its way. Until it shows, no form: the ended session
  // alone would show "Forgot password?"'s, and a student (WebKit's journey, 2026-11-30) typed the
  // username into it, lost when the sign-in page came.
  const [done, setDone] = useState(false);
  const onDone = () => setDone(true);

  let body;
  if (done) body = <Loader color="red" mx="auto" my="xl" aria-label="Taking you to sign in" />;
  else if (session.isPending)
    body = <Loader color="red" mx="auto" my="xl" aria-label="Checking your session" />;
  else if (firstLogin) body = <ResetForm onDone={onDone} />;
  else if (forgotUser) body = <ResetForm username={forgotUser} onDone={onDone} />;
  else body = <ForgotForm onSent={setForgotUser} explain={!params.has('forgot')} />;

  return (
    <Center mih="100dvh" p="md" bg="gray.0">
      <Paper withBorder shadow="md" radius="md" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={440}>
        <Stack>
          <Group justify="center">
            <Logo size={40} withName={false} />
          </Group>
          <Title order={1} ta="center" size="h2">
            Reset Your Password
          </Title>
          {body}
          <Anchor component={Link} to="/" replace size="sm" ta="center">
            Back to sign in
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}

/** Step one of "Forgot password?": whose code to mail. */
function ForgotForm({ onSent, explain }: { onSent(username: string): void; explain: boolean }) {
  const [username, setUsername] = useState('');
  const send = useMutation({
    mutationFn: (name: string) => requestCode(name),
    onSuccess: (res, name) => {
      toast.info(res.message);
      onSent(name);
    },
    onError: (error) => toast.error(messageOf(error, studentToasts.otpResendFailed)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (username.trim()) send.mutate(username.trim());
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed" ta="center">
          {explain
            ? 'Your session has ended. Enter your username or e-mail and we will mail you a one-time code.'
            : 'Enter your username or e-mail and we will mail you a one-time code.'}
        </Text>
        <LoginInput value={username} onChange={setUsername} />
        <Button type="submit" color="red" fullWidth loading={send.isPending} disabled={!username.trim()}>
          Send code
        </Button>
      </Stack>
    </form>
  );
}

/**
 * OTP, new and confirm password; `username` when resetting without a session. `onDone` as the reset
 * succeeds, before the session is marked over and sign-in is opened.
 */
function ResetForm({ username, onDone }: { username?: string; onDone(): void }) {
  const navigate = useReplaceNavigate();
  const queryClient = useQueryClient();
  const countdown = useCountdown();
  const [otp, setOtp] = useState('');
  const newPassword = useNewPassword();

  const resend = useMutation({
    mutationFn: () => requestCode(username),
    onSuccess: () => {
      toast.success(studentToasts.otpResent);
      countdown.restart();
    },
    onError: (error) => {
      toast.error(studentToasts.otpResendFailed);
      // The server says how long until another code may be sent (a reload restarts our count).
      const wait = error instanceof ApiError ? Number(error.body.retryAfter) : NaN;
      if (Number.isFinite(wait) && wait > 0) countdown.restart(wait);
    },
  });

  const reset = useMutation({
    mutationFn: () =>
      resetPassword({ otp, newpassword: newPassword.password, ...(username ? { username } : {}) }),
    onSuccess: ({ message }) => {
      toast.success(message || studentToasts.resetSuccess);
      onDone();
      queryClient.setQueryData(sessionKeys.authCheck, { valid: false });
      navigate('/');
    },
    onError: (error) => toast.error(messageOf(error, studentToasts.resetFailed)),
  });

  const canReset = otp.length === OTP_LENGTH && newPassword.ready && !reset.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canReset) reset.mutate();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed" ta="center">
          Enter the 6-digit code we e-mailed you and choose a new password.
        </Text>
        <Input.Wrapper label="One-time code (OTP)" labelElement="div">
          <PinInput
            length={OTP_LENGTH}
            type="number"
            inputMode="numeric"
            oneTimeCode
            autoFocus
            value={otp}
            onChange={setOtp}
            getInputProps={(index) => ({ 'aria-label': `OTP digit ${index + 1} of ${OTP_LENGTH}` })}
            mt={4}
            gap="sm"
            styles={{ root: { justifyContent: 'space-between' } }}
          />
        </Input.Wrapper>
        <NewPasswordFields {...newPassword.fields} confirmLabel="Confirm password" />
        <Button type="submit" color="red" fullWidth disabled={!canReset} loading={reset.isPending}>
          Reset Password
        </Button>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" c={countdown.seconds > 0 ? 'dimmed' : undefined}>
            Time left: {countdown.seconds}s
          </Text>
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            onClick={() => resend.mutate()}
            disabled={countdown.seconds > 0 || resend.isPending}
          >
            Resend OTP
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
