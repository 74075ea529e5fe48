import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { CheckpointKind, StaffCheckpoint } from '../../../contract/checkpoints';
import { formatMoment } from '../../../contract/learning';
import type { AdminVideo } from '../../../contract/videos';
import { messageOf } from '../../api/client';
import { TextBox } from '../../ui/TextBox';
import { useCheckpointActions, useStaffCheckpoints } from '../../api/checkpoints';
import { EditModal } from '../ui/EditModal';
import { Loaded } from '../ui/Loaded';
import { ServerReason } from '../ui/ServerReason';

const KIND_NAME: Record<CheckpointKind, string> = {
  single: 'Single choice',
  multiple: 'Multiple choice',
  output: 'What does this print?',
};

/** One placed checkpoint: its moment, kind, prompt and right answers, and Delete. */
function CheckpointLine({ checkpoint, onDelete }: { checkpoint: StaffCheckpoint; onDelete(): void }) {
  const right =
    checkpoint.kind === 'output'
      ? checkpoint.answers.map(String).join(' | ')
      : checkpoint.answers.map((n) => checkpoint.choices[Number(n)] ?? '?').join(', ');
  return (
    <Paper withBorder radius="sm" p="sm" component="li">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} size="sm">
              {formatMoment(checkpoint.t)}
            </Text>
            <Badge variant="light" color="gray" size="sm">
              {KIND_NAME[checkpoint.kind]}
            </Badge>
            {checkpoint.required && (
              <Badge variant="light" color="red" size="sm">
                Required
              </Badge>
            )}
          </Group>
          <Text size="sm" lineClamp={2} style={{ whiteSpace: 'pre-line' }}>
            {checkpoint.prompt}
          </Text>
          <Text size="xs" c="dimmed">
            Right: {right}
            {checkpoint.rewindTo !== null ? ` · wrong: back to ${formatMoment(checkpoint.rewindTo)}` : ''}
          </Text>
          {checkpoint.stats && (
            <Text size="xs" c="dimmed" data-testid="checkpoint-stats">
              Reached {checkpoint.stats.reached} · answered {checkpoint.stats.answered} · passed{' '}
              {checkpoint.stats.passed} · right first time {checkpoint.stats.firstTryCorrect} ·{' '}
              {checkpoint.stats.attempts} attempts
              {checkpoint.stats.distribution.length > 0 &&
                ` · answers: ${checkpoint.stats.distribution
                  .slice(0, 3)
                  .map((d) => `${d.answer} (${d.count})`)
                  .join(', ')}`}
            </Text>
          )}
        </Stack>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Delete the checkpoint at ${formatMoment(checkpoint.t)}`}
          onClick={onDelete}
        >
          <IconTrash size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
    </Paper>
  );
}

/** The form that places a checkpoint; the server checks it and names what is wrong. */
function AddCheckpoint({ videoId }: { videoId: string }) {
  const actions = useCheckpointActions(videoId);
  const [t, setT] = useState<number | string>(0);
  const [kind, setKind] = useState<CheckpointKind>('single');
  const [prompt, setPrompt] = useState('');
  const [choices, setChoices] = useState('');
  const [answers, setAnswers] = useState('');
  const [required, setRequired] = useState(true);
  const [rewindTo, setRewindTo] = useState<number | string>('');
  const output = kind === 'output';

  const save = () => {
    const choiceList = choices
      .split('\n')
      .map((c) => c.trim())
      .filter(Boolean);
    const answerList = output
      ? answers.split(/\n---\n/).filter((a) => a.trim())
      : answers
          .split(/[\s,]+/)
          .filter(Boolean)
          .map((n) => Number(n) - 1);
    actions.add.mutate(
      {
        t: Number(t),
        kind,
        prompt,
        ...(output ? {} : { choices: choiceList }),
        answers: answerList,
        required,
        rewindTo: rewindTo === '' ? null : Number(rewindTo),
      },
      {
        onSuccess: () => {
          setPrompt('');
          setChoices('');
          setAnswers('');
        },
      },
    );
  };

  return (
    <Stack
      gap="xs"
      component="form"
      onSubmit={(e) => (e.preventDefault(), save())}
      aria-label="Add a checkpoint"
    >
      <Group grow align="flex-start">
        <NumberInput label="At (seconds)" min={0} value={t} onChange={setT} />
        <Select
          label="Kind"
          value={kind}
          onChange={(v) => v && setKind(v as CheckpointKind)}
          data={Object.entries(KIND_NAME).map(([value, label]) => ({ value, label }))}
          allowDeselect={false}
        />
      </Group>
      <TextBox
        label="Prompt"
        description="``` fences a code block; `backticks` mark code."
        value={prompt}
        onValue={setPrompt}
      />
      {!output && <TextBox label="Choices (one a line)" value={choices} onValue={setChoices} />}
      <TextBox
        label={
          output ? 'Accepted outputs (a line of --- between two)' : 'Right choices (their numbers, from 1)'
        }
        value={answers}
        onValue={setAnswers}
        minRows={1}
        styles={output ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
      />
      <Group grow align="flex-end">
        <NumberInput
          label="On a wrong answer, back to (seconds)"
          min={0}
          value={rewindTo}
          onChange={setRewindTo}
          placeholder="No rewatch"
        />
        <Checkbox
          label="Required: the lecture is held here until it is passed"
          checked={required}
          onChange={(e) => setRequired(e.currentTarget.checked)}
          mb={8}
        />
      </Group>
      <ServerReason
        reason={actions.add.isError ? messageOf(actions.add.error, 'Could not add the checkpoint.') : null}
      />
      <Group justify="flex-end">
        <Button type="submit" loading={actions.add.isPending}>
          Add checkpoint
        </Button>
      </Group>
    </Stack>
  );
}

function Checkpoints({ video }: { video: AdminVideo }) {
  const list = useStaffCheckpoints(video._id);
  const actions = useCheckpointActions(video._id);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Questions at a moment of the lecture. The player stops there; a required one holds the lecture (the
        server gives no key past it) until the student answers it right.
      </Text>
      <Loaded
        query={list}
        failure="Could not load the checkpoints."
        loading={
          <Text size="sm" c="dimmed">
            Loading the checkpoints…
          </Text>
        }
      >
        {(checkpoints) =>
          checkpoints.length ? (
            <Stack
              gap="xs"
              component="ul"
              aria-label="Checkpoints"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {checkpoints.map((c) => (
                <CheckpointLine key={c._id} checkpoint={c} onDelete={() => actions.remove.mutate(c._id)} />
              ))}
            </Stack>
          ) : (
            <Text size="sm">No checkpoints in this lecture yet.</Text>
          )
        }
      </Loaded>
      <ServerReason
        reason={
          actions.remove.isError ? messageOf(actions.remove.error, 'Could not delete the checkpoint.') : null
        }
      />
      <AddCheckpoint videoId={video._id} />
    </Stack>
  );
}

/** The checkpoints of a lecture, placed from the Edit Video Details screen. */
export function CheckpointsModal({ video, onClose }: { video: AdminVideo | null; onClose(): void }) {
  return (
    <EditModal title={video ? `Checkpoints: ${video.title}` : 'Checkpoints'} item={video} onClose={onClose}>
      {(v) => <Checkpoints video={v} />}
    </EditModal>
  );
}
