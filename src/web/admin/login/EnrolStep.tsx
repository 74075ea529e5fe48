import {
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Divider,
  Group,
  Image,
  List,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { adminApi } from '../../api/admin';
import { messageOf, reasonOf } from '../../api/client';
import { addPasskey } from './passkey-flow';

/**
 * Setting up two-step sign-in after the password: a QR code for the authenticator app and the same
 * secret as text, a code to prove it works, then the ten recovery codes, shown once (copy, download,
 * and "I have saved them" before going on). Or a passkey instead of the app ("Use a passkey
 * instead"): the same recovery codes follow.
 */
export function EnrolStep({ onDone, onBack }: { onDone(): void; onBack(): void }) {
  const enrolment = useQuery({
    queryKey: ['admin', 'mfa-enrolment'],
    queryFn: () => adminApi.startEnrolment(),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const [code, setCode] = useState('');
  const confirm = useMutation({ mutationFn: adminApi.confirmEnrolment });
  const passkey = useMutation({ mutationFn: () => addPasskey('Passkey') });

  if (confirm.data?.recoveryCodes)
    return <RecoveryCodes codes={confirm.data.recoveryCodes} onDone={onDone} />;
  if (passkey.data?.recoveryCodes)
    return <RecoveryCodes codes={passkey.data.recoveryCodes} onDone={onDone} />;

  if (enrolment.isPending)
    return (
      <Group justify="center" py="lg" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm">Preparing your secret…</Text>
      </Group>
    );

  if (enrolment.isError)
    return (
      <Stack>
        <Alert color="red" role="alert" title="Could not start the setup">
          {messageOf(enrolment.error, 'Please sign in again.')}
        </Alert>
        <Button variant="default" onClick={onBack}>
          Back to sign in
        </Button>
      </Stack>
    );

  const { qr, secret } = enrolment.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirm.isPending && code) confirm.mutate(code);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Set up two-step sign-in">
      <Stack>
        <Title order={2} size="h4">
          Set up two-step sign-in
        </Title>
        <List type="ordered" size="sm" spacing={4}>
          <List.Item>
            Open an authenticator app on your phone (Google Authenticator, Aegis, 1Password…).
          </List.Item>
          <List.Item>Scan the QR code, or type the secret below.</List.Item>
          <List.Item>Enter the 6-digit code the app shows.</List.Item>
        </List>
        <Image
          src={qr}
          alt="QR code for your authenticator app (the same secret is written below)"
          w={200}
          h={200}
          mx="auto"
        />
        <div>
          <Text size="sm" fw={500} id="mfa-secret-label">
            Secret (to type instead of scanning)
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Code
              aria-labelledby="mfa-secret-label"
              data-testid="mfa-secret"
              style={{ wordBreak: 'break-all', fontSize: 14, flex: 1, minWidth: 0 }}
            >
              {secret.replace(/(.{4})/g, '$1 ').trim()}
            </Code>
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy} style={{ flexShrink: 0 }}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </div>
        <TextInput
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          error={confirm.isError ? messageOf(confirm.error, 'That code is not right.') : undefined}
          onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
        />
        <Button type="submit" color="red" fullWidth disabled={confirm.isPending || passkey.isPending}>
          {confirm.isPending ? 'Please wait...' : 'Turn on two-step sign-in'}
        </Button>
        <Divider label="or" labelPosition="center" />
        <Stack gap={4}>
          <Button
            variant="default"
            fullWidth
            leftSection={<IconKey size={18} aria-hidden />}
            disabled={passkey.isPending || confirm.isPending}
            onClick={() => passkey.mutate()}
          >
            {passkey.isPending ? 'Waiting for your passkey...' : 'Use a passkey instead'}
          </Button>
          <Text size="xs" c="dimmed">
            Your device&apos;s screen lock, or a security key, signs you in instead of the app&apos;s codes.
          </Text>
          {passkey.isError && (
            <Text size="sm" c="red" role="alert">
              {reasonOf(passkey.error) ?? 'The passkey could not be added.'}
            </Text>
          )}
        </Stack>
        <Button variant="subtle" color="gray" onClick={onBack}>
          Back to sign in
        </Button>
      </Stack>
    </form>
  );
}

/** The ten recovery codes, shown once: copy, download, "I have saved them", then `onDone` (also the account page's renewal). */
export function RecoveryCodes({
  codes,
  onDone,
  heading = true,
}: {
  codes: string[];
  onDone(): void;
  /** Its own "Save your recovery codes" title (off where the surrounding section has one). */
  heading?: boolean;
}) {
  const [saved, setSaved] = useState(false);
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack>
      {heading && (
        <Title order={2} size="h4">
          Save your recovery codes
        </Title>
      )}
      <Text size="sm">
        If you lose your phone, each of these codes signs you in once instead of the app. They are shown only
        now: keep them somewhere safe, away from your password.
      </Text>
      <Code
        block
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        style={{ columns: 2, fontSize: 15 }}
      >
        {text}
      </Code>
      <Group grow>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={download}>
          Download
        </Button>
      </Group>
      <Checkbox
        label="I have saved them"
        checked={saved}
        onChange={(event) => setSaved(event.currentTarget.checked)}
      />
      <Button color="red" disabled={!saved} onClick={onDone}>
        Continue
      </Button>
    </Stack>
  );
}
