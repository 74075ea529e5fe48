import { Anchor, Button, Divider, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';

/** The passkey choice at the second step, when the admin has one. */
export interface PasskeyChoice {
  pending: boolean;
  error?: string;
  onUse(): void;
}

/**
 * The sign-in's second step: the 6-digit code from the authenticator app, or (one click away) a
 * recovery code; "Use a passkey" when the admin has one (first, when it is their only factor beside
 * the recovery codes). The field is labelled, announces its error, and submits with Enter. Also the
 * "Confirm it's you" prompt's form (`name`, `backLabel`).
 */
export function CodeStep({
  pending,
  error,
  onSubmit,
  onBack,
  app = true,
  passkey,
  name = 'Two-step sign-in',
  backLabel = 'Back to sign in',
}: {
  pending: boolean;
  error?: string;
  onSubmit(code: string): void;
  onBack(): void;
  /** Whether the admin has an authenticator app (else only recovery codes are typed here). */
  app?: boolean;
  passkey?: PasskeyChoice;
  /** The form's accessible name. */
  name?: string;
  backLabel?: string;
}) {
  const [recovery, setRecovery] = useState(!app);
  const [code, setCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending && code.trim()) onSubmit(code.trim());
  };

  const passkeyButton = passkey && (
    <Stack gap={4}>
      <Button
        variant={app ? 'default' : 'filled'}
        color={app ? undefined : 'red'}
        fullWidth
        leftSection={<IconKey size={18} aria-hidden />}
        disabled={passkey.pending || pending}
        onClick={passkey.onUse}
      >
        {passkey.pending ? 'Waiting for your passkey...' : 'Use a passkey'}
      </Button>
      {passkey.error && (
        <Text size="sm" c="red" role="alert">
          {passkey.error}
        </Text>
      )}
    </Stack>
  );

  return (
    <form onSubmit={submit} noValidate aria-label={name}>
      <Stack>
        {!app && passkeyButton}
        {!app && passkey && <Divider label="or a recovery code" labelPosition="center" />}
        <Text size="sm">
          {recovery
            ? 'Enter one of the recovery codes you saved when you set up two-step sign-in. Each works once.'
            : 'Open your authenticator app and enter the 6-digit code it shows for this account.'}
        </Text>
        {recovery ? (
          <TextInput
            key="recovery"
            label="Recovery code"
            autoComplete="off"
            autoFocus={app}
            data-autofocus={app || undefined}
            spellCheck={false}
            value={code}
            error={error}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
        ) : (
          <TextInput
            key="totp"
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            data-autofocus
            maxLength={6}
            value={code}
            error={error}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
          />
        )}
        <Button type="submit" color="red" fullWidth disabled={pending}>
          {pending ? 'Please wait...' : 'Verify'}
        </Button>
        {app && passkey && <Divider label="or" labelPosition="center" />}
        {app && passkeyButton}
        <Group justify="space-between">
          {app ? (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setRecovery(!recovery);
                setCode('');
              }}
            >
              {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
            </Anchor>
          ) : (
            <span />
          )}
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onBack}>
            {backLabel}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
