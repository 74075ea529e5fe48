import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { adminApi } from '../../api/admin';
import { messageOf } from '../../api/client';
import { sessionKeys } from '../../api/session';
import { useReplaceNavigate } from '../../session/navigation';
import { NewPasswordFields, useNewPassword } from '../../ui/NewPasswordFields';
import { productName } from '../../ui/product';
import { AuthCard } from '../../ui/SignInCard';
import { toast } from '../../ui/toast';
import { EnrolStep } from './EnrolStep';

/** The link's token, read once: the part after `#`, which never reaches a server log or a Referer. */
function takeToken(): string {
  const token = window.location.hash.slice(1);
  if (token) window.history.replaceState(null, '', window.location.pathname);
  return token;
}

/**
 * /adminsetup#token: the one-time link mailed to a staff member whose account waits for them (a new
 * instructor, or after `mfa:reset`): they choose a password, then set up two-step sign-in as at a
 * first sign-in.
 */
export default function SetupPage() {
  const navigate = useReplaceNavigate();
  const queryClient = useQueryClient();
  const [token] = useState(takeToken);
  const newPassword = useNewPassword();
  const setup = useMutation({ mutationFn: adminApi.setup });

  const signedIn = (message: string) => {
    toast.success(message);
    void queryClient.invalidateQueries({ queryKey: sessionKeys.adminCheck });
    navigate('/admindashboard');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (newPassword.ready && !setup.isPending)
      setup.mutate(
        { token, newPassword: newPassword.password },
        {
          onSuccess: ({ message, next }) => {
            if (!next) signedIn(message);
            // A factor still held: the password was set, the second step is at the sign-in.
            else if (next === 'totp') navigate('/adminlogin');
          },
        },
      );
  };

  const enrolling = setup.data?.next === 'enrol';
  return (
    <AuthCard
      width={460}
      title={`${productName()} account`}
      subtitle={enrolling ? 'Your password is set. Protect the account.' : 'Choose your password.'}
      pending={setup.isPending}
    >
      {enrolling ? (
        <EnrolStep onDone={() => signedIn('Admin login successful')} onBack={() => navigate('/adminlogin')} />
      ) : !token ? (
        <Alert color="red" role="alert" title="This link is not complete">
          Open the set-up link from the e-mail again, all of it.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Choose your password">
          <Stack gap="sm">
            <Text size="sm">This link works once. After the password, you set up two-step sign-in.</Text>
            <NewPasswordFields {...newPassword.fields} confirmLabel="Confirm new password" />
            {setup.isError && (
              <Alert color="red" role="alert">
                {messageOf(setup.error, 'The password could not be set. Please try again.')}
              </Alert>
            )}
            <Button type="submit" disabled={!newPassword.ready} loading={setup.isPending}>
              Set password
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
