import { Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClock } from '@tabler/icons-react';
import type { LiveRecording, RecordingStep } from '../../../contract/live';
import { Meter } from '../ui/Meter';

/** The packaging's steps as the staff read them, numbered in the job's order (the ladder is marked or not). */
const STEPS: Record<RecordingStep, { n: number; label: string }> = {
  source: { n: 1, label: 'saving the source' },
  poster: { n: 2, label: 'making the poster' },
  renditions: { n: 3, label: 'renditions' },
  'marked renditions': { n: 3, label: 'marked renditions' },
  'search index': { n: 4, label: 'search index' },
};
const STEP_COUNT = 4;

/** "Step 3 of 4 (renditions 2 of 3)" while packaging; "Starting" before its first step. */
function whereItIs(r: LiveRecording): string {
  if (!r.step) return 'Starting';
  const { n, label } = STEPS[r.step];
  const part = r.part && r.parts ? ` ${r.part} of ${r.parts}` : '';
  return `Step ${n} of ${STEP_COUNT} (${label}${part})`;
}

/** What a recording's state says, in words (never colour alone). */
export function recordingText(r: LiveRecording): { title: string; detail?: string } {
  switch (r.state) {
    case 'waiting':
      return {
        title: 'Recording waiting to be packaged',
        ...(r.message && { detail: `The last attempt failed (${r.message}); it will be tried again.` }),
      };
    case 'packaging':
      return { title: 'Preparing the recording', detail: whereItIs(r) };
    case 'done':
      return { title: 'Recording ready' };
    case 'failed':
      return { title: 'Recording packaging failed', detail: r.message };
  }
}

const isPackaging = (r: LiveRecording) => r.state === 'waiting' || r.state === 'packaging';

const STILL_PLAYS = 'The recording still plays as streamed.';
/** "Reason: the source is unreadable. " (nothing without one). */
const reason = (detail: string | undefined) => (detail ? sentence(`Reason: ${detail}`) : '');
/** `text` ending in one full stop, and a space before what follows. */
const sentence = (text: string) => `${text.replace(/\.$/, '')}. `;

function Icon({ state }: { state: LiveRecording['state'] }) {
  if (state === 'packaging') return <Loader size={12} color="yellow.8" aria-hidden="true" />;
  if (state === 'done')
    return <IconCircleCheck size={14} color="var(--mantine-color-teal-7)" aria-hidden="true" />;
  if (state === 'failed')
    return <IconAlertTriangle size={14} color="var(--mantine-color-red-7)" aria-hidden="true" />;
  return <IconClock size={14} color="var(--mantine-color-gray-7)" aria-hidden="true" />;
}

/** One line in a list row: the state and where it is; a failure's reason cut to two lines. */
export function RecordingLine({ recording }: { recording: LiveRecording }) {
  const { title, detail } = recordingText(recording);
  const failed = recording.state === 'failed';
  return (
    <Stack gap={0} data-testid="recording-line">
      <Group gap={4} wrap="nowrap" align="center">
        <Icon state={recording.state} />
        <Text size="xs" fw={500} c={failed ? 'red.8' : undefined}>
          {title}
          {recording.state === 'packaging' && detail
            ? `: ${detail.charAt(0).toLowerCase()}${detail.slice(1)}`
            : recording.state === 'waiting' && recording.message
              ? ' (after a failed attempt)'
              : ''}
        </Text>
      </Group>
      {failed && (
        <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {/* That it still plays first: at 390 px the clamp may cut the reason (the page has it whole). */}
          {STILL_PLAYS} {reason(detail)}
        </Text>
      )}
    </Stack>
  );
}

/** The class page's block: the state, a bar while it is on its way, and a failure's whole reason. */
export function RecordingPanel({ recording }: { recording: LiveRecording }) {
  const { title, detail } = recordingText(recording);
  const { state } = recording;
  return (
    <Stack gap={6} data-testid="recording-panel">
      <Group gap={6} wrap="nowrap">
        <Icon state={state} />
        <Text size="sm" fw={600} c={state === 'failed' ? 'red.8' : undefined}>
          {title}
        </Text>
      </Group>
      {isPackaging(recording) && (
        <Meter
          label="Recording packaging"
          percent={null}
          text={detail ? `${title}: ${detail}` : title}
          color={recording.message ? 'orange' : 'blue'}
          moving={state === 'packaging'}
        />
      )}
      {/* Read out as it moves on: the step changes every few minutes, not at every poll. */}
      <Text size="sm" aria-live="polite" style={{ overflowWrap: 'anywhere' }}>
        {state === 'failed'
          ? `${reason(detail)}${STILL_PLAYS}`
          : state === 'done'
            ? 'The recording is packaged as a lecture of the course.'
            : `${detail ? sentence(detail) : ''}Meanwhile the recording plays as streamed.`}
      </Text>
    </Stack>
  );
}
