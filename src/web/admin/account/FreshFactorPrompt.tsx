import { Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useMfaStatus } from '../../api/account';
import { adminApi } from '../../api/admin';
import { messageOf, reasonOf, setFactorPrompt } from '../../api/client';
import { CodeStep } from '../login/CodeStep';
import { assertPasskey } from '../login/passkey-flow';

/** Mantine's modals sit at 200: the prompt goes over any of them. */
const PROMPT_Z_INDEX = 300;

/**
 * "Confirm it's you": mounted once by the admin layout. When a sensitive route refuses a second
 * factor older than 10 minutes (api/client.ts `withFreshFactor`), it asks for the authenticator's
 * code or a recovery code (POST /api/admin/mfa/verify), or one of the admin's passkeys, and the
 * refused request is sent once more. Cancel gives the refusal back to the screen that made the request.
 */
export function FreshFactorPrompt() {
  const [opened, setOpened] = useState(false);
  const answer = useRef<((proven: boolean) => void) | null>(null);
  const verify = useMutation({ mutationFn: adminApi.verifyFactor });
  const passkey = useMutation({ mutationFn: assertPasskey });
  const { reset } = verify;
  const resetPasskey = passkey.reset;
  // Which factors the admin holds: the app's code, passkeys, or both.
  const status = useMfaStatus({ enabled: opened });

  useEffect(
    () =>
      setFactorPrompt(
        () =>
          new Promise<boolean>((resolve) => {
            answer.current = resolve;
            reset();
            resetPasskey();
            setOpened(true);
          }),
      ),
    [reset, resetPasskey],
  );
  // An unmounted layout (signed out, another screen tree) leaves no request waiting.
  useEffect(() => () => answer.current?.(false), []);

  const close = (proven: boolean) => {
    setOpened(false);
    answer.current?.(proven);
    answer.current = null;
  };

  return (
    // Above the dialog whose action asked for it (a confirmation is often still open underneath).
    <Modal
      opened={opened}
      onClose={() => close(false)}
      title="Confirm it's you"
      centered
      zIndex={PROMPT_Z_INDEX}
    >
      {opened && (
        <Stack>
          <Text size="sm">
            This action needs a fresh second step: you last proved it more than 10 minutes ago.
          </Text>
          <CodeStep
            name="Confirm it's you"
            backLabel="Cancel"
            pending={verify.isPending}
            error={verify.isError ? messageOf(verify.error, 'That code is not right.') : undefined}
            onSubmit={(code) => verify.mutate(code, { onSuccess: () => close(true) })}
            onBack={() => close(false)}
            app={status.data?.app ?? true}
            passkey={
              status.data?.passkeys
                ? {
                    pending: passkey.isPending,
                    error: passkey.isError
                      ? (reasonOf(passkey.error) ?? 'That passkey was not accepted.')
                      : undefined,
                    onUse: () => passkey.mutate(undefined, { onSuccess: () => close(true) }),
                  }
                : undefined
            }
          />
        </Stack>
      )}
    </Modal>
  );
}
