import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatBytes } from '../ui/format';
import type { UploadProgress } from './chunked-upload';

export type OverlayState = UploadProgress | { phase: 'saving'; sent: number; total: number };

const HEADINGS: Record<OverlayState['phase'], string> = {
  uploading: 'Uploading video',
  retrying: 'Connection lost',
  finalizing: 'Checking the video',
  saving: 'Saving details and access',
};

/** Seconds left until a retry, counting down. */
function useCountdown(ms: number | undefined) {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (ms === undefined) return;
    const until = Date.now() + ms;
    const tick = () => setLeft(Math.max(0, Math.ceil((until - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [ms]);
  return left;
}

/**
 * The upload overlay (SPEC.md section 2): percent and sent/total size, what is happening, and a
 * Cancel that asks once before throwing the upload away.
 */
export function UploadProgressModal({
  state,
  fileName,
  onCancel,
}: {
  state: OverlayState | null;
  fileName: string;
  onCancel(): void;
}) {
  const [confirming, setConfirming] = useState(false);
  const retry = state?.phase === 'retrying' ? state.retry : undefined;
  const left = useCountdown(retry?.delayMs);
  useEffect(() => {
    if (!state) setConfirming(false);
  }, [state]);

  const percent = state && state.total > 0 ? Math.floor((state.sent / state.total) * 100) : 0;
  const cancellable = state?.phase === 'uploading' || state?.phase === 'retrying';

  return (
    <Modal
      opened={state !== null}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title={state ? HEADINGS[state.phase] : ''}
      overlayProps={{ backgroundOpacity: 0.55, blur: 2 }}
    >
      {state && (
        <Stack gap="sm" aria-live="polite">
          <Text size="sm" fw={600} truncate="end" title={fileName}>
            {fileName}
          </Text>
          <Group justify="space-between" align="baseline">
            <Text fz={32} fw={700} data-testid="upload-percent">
              {percent}%
            </Text>
            <Text size="sm" c="dimmed" data-testid="upload-bytes">
              {formatBytes(state.sent)} / {formatBytes(state.total)}
            </Text>
          </Group>
          <Progress
            value={percent}
            size="lg"
            striped
            animated={state.phase !== 'retrying'}
            color={state.phase === 'retrying' ? 'orange' : 'red'}
            aria-label="Upload progress"
          />
          <Text size="sm" c={state.phase === 'retrying' ? 'orange.8' : 'dimmed'}>
            {state.phase === 'uploading' && 'Sending the file in 5 MB parts. Keep this page open.'}
            {state.phase === 'retrying' && state.message && `${state.message} `}
            {state.phase === 'retrying' &&
              retry &&
              `Retrying in ${left} s (attempt ${retry.attempt} of ${retry.maxAttempts}); the upload resumes where the server stopped.`}
            {state.phase === 'finalizing' && 'All parts arrived. Checking that the file is a playable video…'}
            {state.phase === 'saving' && 'Saving the title, course and student access…'}
          </Text>
          {cancellable &&
            (confirming ? (
              <Group justify="flex-end" gap="xs">
                <Text size="sm" mr="auto">
                  Cancel this upload?
                </Text>
                <Button variant="default" size="xs" onClick={() => setConfirming(false)}>
                  Keep uploading
                </Button>
                <Button color="red" size="xs" onClick={onCancel}>
                  Cancel upload
                </Button>
              </Group>
            ) : (
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setConfirming(true)}>
                  Cancel
                </Button>
              </Group>
            ))}
        </Stack>
      )}
    </Modal>
  );
}
