import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Passkey } from '../../../contract/mfa';
import { serverMessages } from '../../../contract/messages';
import { adminApi } from '../../api/admin';
import { ApiError, reasonOf } from '../../api/client';
import { ConfirmRemoveModal } from '../ui/ConfirmModal';
import { PageHeader } from '../ui/PageHeader';
import { toast } from '../../ui/toast';
import { addPasskey, assertPasskey } from './passkey-flow';

const passkeysKey = ['admin', 'passkeys'] as const;

/** Whether the server asked for the second factor again (the route wants it fresh). */
const wantsFreshFactor = (error: unknown) =>
  error instanceof ApiError && error.status === 403 && error.message === serverMessages.mfaFreshFactor;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/**
 * The signed-in admin's passkeys: each with its name, when it was added and last used; "Add a
 * passkey" (named, made by this device or a security key) and Remove. Both want the second factor
 * proven within 10 minutes: when the server asks, "Confirm with a passkey" proves it and retries.
 */
export function PasskeysPanel() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: passkeysKey, queryFn: () => adminApi.listPasskeys() });
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [retry, setRetry] = useState<(() => void) | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: passkeysKey });

  const add = useMutation({
    mutationFn: (passkeyName: string) => addPasskey(passkeyName),
    onSuccess: ({ message }) => {
      toast.success(message);
      setName('');
      void refresh();
    },
    onError: (error, passkeyName) => {
      if (wantsFreshFactor(error)) setRetry(() => () => add.mutate(passkeyName));
    },
  });
  const remove = useMutation({
    mutationFn: (passkey: Passkey) => adminApi.removePasskey(passkey.id),
    onSuccess: ({ message }) => {
      toast.success(message);
      setRemoving(null);
      void refresh();
    },
    onError: (error, passkey) => {
      setRemoving(null);
      if (wantsFreshFactor(error)) setRetry(() => () => remove.mutate(passkey));
    },
  });
  const confirm = useMutation({
    mutationFn: assertPasskey,
    onSuccess: () => {
      const again = retry;
      setRetry(null);
      add.reset();
      remove.reset();
      again?.();
      void refresh();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!add.isPending) add.mutate(name.trim() || 'Passkey');
  };

  const passkeys = list.data?.passkeys ?? [];
  const failure = [add, remove].find((m) => m.isError && !wantsFreshFactor(m.error));

  return (
    <section aria-labelledby="passkeys-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="passkeys-title">
            Passkeys
          </Title>
          <Text size="sm" c="dimmed">
            A passkey signs you in after your password instead of the app&apos;s code: your device&apos;s
            screen lock or a security key, bound to this site. Adding or removing one signs out your other
            sessions, and you get an e-mail about it.
          </Text>
        </div>
        {list.isError && (
          <Alert color="red" role="alert" title="Could not load your passkeys">
            {reasonOf(list.error) ?? 'Please try again.'}
          </Alert>
        )}
        {list.isSuccess && passkeys.length === 0 && (
          <Text size="sm" data-testid="no-passkeys">
            No passkeys yet.
          </Text>
        )}
        {passkeys.length > 0 && (
          <Stack
            gap="xs"
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label="Your passkeys"
          >
            {passkeys.map((passkey) => (
              <Card key={passkey.id} withBorder radius="md" padding="sm" component="li">
                <Group justify="space-between" wrap="nowrap" gap="sm">
                  <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
                    <IconKey size={20} aria-hidden style={{ flexShrink: 0 }} />
                    <div style={{ minWidth: 0 }}>
                      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {passkey.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        Added {when(passkey.createdAt)} · last used {when(passkey.lastUsedAt)}
                      </Text>
                    </div>
                  </Group>
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    style={{ flexShrink: 0 }}
                    onClick={() => setRemoving(passkey)}
                    aria-label={`Remove ${passkey.name}`}
                  >
                    Remove
                  </Button>
                </Group>
              </Card>
            ))}
          </Stack>
        )}
        {retry && (
          <Alert color="yellow" variant="light" title="Please confirm it is you" role="alert">
            <Stack gap="xs">
              <Text size="sm">{serverMessages.mfaFreshFactor}</Text>
              {passkeys.length > 0 && (
                <Group>
                  <Button size="xs" onClick={() => confirm.mutate()} loading={confirm.isPending}>
                    Confirm with a passkey
                  </Button>
                  <Button size="xs" variant="subtle" color="gray" onClick={() => setRetry(null)}>
                    Cancel
                  </Button>
                </Group>
              )}
              {confirm.isError && (
                <Text size="sm" c="red">
                  {reasonOf(confirm.error) ?? 'That passkey was not accepted.'}
                </Text>
              )}
            </Stack>
          </Alert>
        )}
        {failure && (
          <Alert color="red" role="alert" title="That did not work">
            {reasonOf(failure.error) ?? 'Please try again.'}
          </Alert>
        )}
        <form onSubmit={submit} noValidate aria-label="Add a passkey">
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Name of the new passkey"
              placeholder="Laptop, phone, security key…"
              maxLength={60}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" leftSection={<IconKey size={16} aria-hidden />} loading={add.isPending}>
              Add a passkey
            </Button>
          </Group>
        </form>
      </Stack>
      <ConfirmRemoveModal
        target={removing}
        title="Remove this passkey?"
        mutation={remove}
        onClose={() => setRemoving(null)}
      >
        {(passkey) => (
          <Text size="sm">
            &quot;{passkey.name}&quot; will no longer sign you in. You can add it again later.
          </Text>
        )}
      </ConfirmRemoveModal>
    </section>
  );
}

/** /adminpasskeys: the Passkeys section on a screen of its own (to join the admin's account screen later). */
export default function PasskeysPage() {
  return (
    <>
      <PageHeader
        title="Passkeys"
        description="Your second factor for signing in, beside the authenticator app."
      />
      <Card withBorder radius="md" padding="lg" maw={720}>
        <PasskeysPanel />
      </Card>
    </>
  );
}
