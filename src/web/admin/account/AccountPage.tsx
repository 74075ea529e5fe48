import { Badge, Button, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { accountApi, accountKeys, useMfaStatus, useOwnSessions } from '../../api/account';
import { NewPasswordFields, useNewPassword } from '../../ui/NewPasswordFields';
import { PasswordField } from '../../ui/PasswordField';
import { RecoveryCodes } from '../login/EnrolStep';
import { PasskeysPanel } from '../login/PasskeysPanel';
import { describeDevice } from './device';
import { ConfirmModal } from '../ui/ConfirmModal';
import { Empty } from '../ui/Empty';
import { formatDateTime } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { LoadedTable } from '../ui/LoadedList';
import { PageHeader } from '../ui/PageHeader';
import { Section } from '../ui/Section';
import { ServerReason } from '../ui/ServerReason';
import { SubmitRow } from '../ui/SubmitRow';
import { useAdminMutation } from '../ui/use-admin-mutation';
import { plural } from '../../../contract/plural';

/**
 * /adminaccount: the signed-in admin's own password, sessions, recovery codes and passkeys. Changing the
 * password, renewing the codes, adding or removing a passkey and signing the other sessions out want a
 * fresh second factor: the client asks for it ("Confirm it's you") when the server refuses.
 */
export default function AccountPage() {
  return (
    <>
      <PageHeader
        title="Your account"
        description="Your password, your two-step sign-in (recovery codes and passkeys), and where you are signed in."
      />
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <PasswordSection />
          <RecoverySection />
        </SimpleGrid>
        <PasskeysPanel />
        <SessionsSection />
      </Stack>
    </>
  );
}

function PasswordSection() {
  const [current, setCurrent] = useState('');
  const newPassword = useNewPassword();
  const clear = () => {
    setCurrent('');
    newPassword.clear();
  };
  const change = useAdminMutation(accountApi.changePassword, {
    success: 'Password changed.',
    failure: 'Could not change the password.',
    onDone: clear,
    // The sessions list, and the recovery codes left (a recovery code may have confirmed it was them).
    refresh: accountKeys.all,
  });

  const ready = current !== '' && newPassword.ready;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready && !change.isPending)
      change.mutate({ currentPassword: current, newPassword: newPassword.password });
  };

  return (
    <Section id="account-password" title="Change your password">
      <Text size="sm" c="dimmed">
        Your other sessions are signed out when the password changes; this one stays signed in.
      </Text>
      <form onSubmit={submit} noValidate aria-labelledby="account-password">
        <Stack gap="sm">
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            value={current}
            onValue={setCurrent}
          />
          <NewPasswordFields {...newPassword.fields} confirmLabel="Confirm new password" />
          <SubmitRow label="Change password" mutation={change} disabled={!ready} />
        </Stack>
      </form>
    </Section>
  );
}

function RecoverySection() {
  const status = useMfaStatus();
  const [codes, setCodes] = useState<string[] | null>(null);
  const renew = useAdminMutation(accountApi.renewRecoveryCodes, {
    success: 'New recovery codes made.',
    failure: 'Could not make new recovery codes.',
    onDone: (answer) => setCodes(answer.recoveryCodes),
    refresh: accountKeys.mfa,
  });

  return (
    <Section id="account-recovery" title={codes ? 'Save your new recovery codes' : 'Recovery codes'}>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} heading={false} />
      ) : (
        <Loaded
          query={status}
          failure="Could not load your two-step sign-in."
          loading={
            <Text size="sm" c="dimmed" role="status">
              Loading…
            </Text>
          }
        >
          {(mfa) =>
            mfa.enrolled ? (
              <>
                <Text size="sm">
                  Each recovery code signs you in once instead of the authenticator app.{' '}
                  <Text span fw={600} data-testid="recovery-left">
                    {plural(mfa.recoveryCodesLeft, 'code')} left.
                  </Text>
                </Text>
                <Text size="sm" c="dimmed">
                  New codes replace all the old ones, used or not, and sign out your other sessions. They are
                  shown once: save them.
                </Text>
                <ServerReason reason={renew.isError ? renew.reason : null} />
                <Group justify="flex-end">
                  <Button variant="default" loading={renew.isPending} onClick={() => renew.mutate()}>
                    Make new recovery codes
                  </Button>
                </Group>
              </>
            ) : (
              <Text size="sm">
                Two-step sign-in is not set up for this account, so there are no recovery codes. It is set up
                at your next sign-in.
              </Text>
            )
          }
        </Loaded>
      )}
    </Section>
  );
}

function SessionsSection() {
  const sessions = useOwnSessions();
  const [confirming, setConfirming] = useState(false);
  const endOthers = useAdminMutation(accountApi.endOtherSessions, {
    success: 'Your other sessions were signed out.',
    failure: 'Could not sign out your other sessions.',
    onDone: () => setConfirming(false),
    refresh: accountKeys.sessions,
  });
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <Section id="account-sessions" title="Where you are signed in">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 260px' }}>
          Each browser you signed in from is a session. A session ends after 30 idle minutes, 12 hours after
          sign-in, or when you sign out.
        </Text>
        <Button variant="outline" color="red" disabled={others === 0} onClick={() => setConfirming(true)}>
          Sign out everywhere else
        </Button>
      </Group>
      <LoadedTable
        minWidth={340}
        columns={['Device and address', 'Started', 'Last active']}
        query={sessions}
        failure="Could not load your sessions."
        loading="Loading your sessions"
        rows={2}
        empty={<Empty title="No sessions" description="Sign in again to see where you are signed in." />}
      >
        {(session) => (
          <Table.Tr key={session.id} data-testid="session-row">
            <Table.Td>
              <Group gap={6} wrap="wrap">
                <Text size="sm" fw={500}>
                  {describeDevice(session.userAgent) ?? 'Unknown browser'}
                </Text>
                {session.current && (
                  <Badge color="teal" variant="light" style={{ minWidth: 'max-content' }}>
                    This device
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {session.ip ?? 'Address not recorded'}
              </Text>
            </Table.Td>
            <Table.Td>{formatDateTime(session.createdAt)}</Table.Td>
            <Table.Td>{session.current ? 'Now' : formatDateTime(session.lastSeenAt) || '—'}</Table.Td>
          </Table.Tr>
        )}
      </LoadedTable>
      <ConfirmModal
        opened={confirming}
        title="Sign out everywhere else?"
        action="Sign out the others"
        color="red"
        pending={endOthers.isPending}
        onConfirm={() => endOthers.mutate()}
        onClose={() => setConfirming(false)}
      >
        {`${plural(others, 'other session')} will be signed out; whoever uses ${others === 1 ? 'it' : 'them'} must sign in again. This session stays signed in.`}
      </ConfirmModal>
    </Section>
  );
}
