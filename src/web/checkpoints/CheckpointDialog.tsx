import { Button, Checkbox, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { type ComponentType, useEffect, useId, useRef, useState } from 'react';
import { formatMoment } from '../../contract/learning';
import type { AttemptAnswer, AttemptResponse, StudentCheckpoint } from '../../contract/checkpoints';
import { ApiError, messageOf } from '../api/client';
import { Markup } from '../learning/Markup';
import { TextBox } from '../ui/TextBox';
import classes from './Checkpoint.module.css';

export interface CheckpointDialogProps {
  checkpoint: StudentCheckpoint;
  submit(answer: AttemptAnswer): Promise<AttemptResponse>;
  /** Passed (or skipped, when not required). */
  onDone(): void;
  /** Wrong, with a moment to watch again from. */
  onRewind(to: number): void;
}

/** The choices in order, each a radio button or check box whose value is its index (what `answer` sends). */
function Choices({
  choices,
  Choice,
}: {
  choices: string[];
  Choice: ComponentType<{ value: string; label: string }>;
}) {
  return (
    <Stack gap={6}>
      {choices.map((choice, i) => (
        <Choice key={i} value={String(i)} label={choice} />
      ))}
    </Stack>
  );
}

/**
 * The question over the picture (inside the player, so fullscreen keeps it): a dialog that takes
 * focus, answered with the keyboard (radio buttons, check boxes or a text box for the output), its
 * result read out by screen readers. The player's keys leave it alone (role="dialog").
 */
export function CheckpointDialog({ checkpoint, submit, onDone, onRewind }: CheckpointDialogProps) {
  const titleId = useId();
  const first = useRef<HTMLDivElement>(null);
  const [single, setSingle] = useState<string>('');
  const [multiple, setMultiple] = useState<string[]>([]);
  const [output, setOutput] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ text: string; ok: boolean } | null>(null);

  useEffect(() => {
    first.current?.querySelector<HTMLElement>('input, textarea')?.focus();
  }, [checkpoint._id]);

  const answer = (): AttemptAnswer | null => {
    if (checkpoint.kind === 'single') return single === '' ? null : Number(single);
    if (checkpoint.kind === 'multiple') return multiple.length ? multiple.map(Number) : null;
    return output;
  };

  const send = async () => {
    const value = answer();
    if (value === null) {
      setResult({ text: 'Choose an answer first.', ok: false });
      return;
    }
    setBusy(true);
    try {
      const r = await submit(value);
      if (r.correct) {
        setResult({ text: 'Right. The lecture goes on.', ok: true });
        setTimeout(onDone, 800);
      } else if (r.rewindTo !== undefined) {
        setResult({
          text: `Not quite. Watch again from ${formatMoment(r.rewindTo)}, then try once more.`,
          ok: false,
        });
        const to = r.rewindTo;
        setTimeout(() => onRewind(to), 1500);
      } else {
        setResult({ text: 'Not quite. Try again.', ok: false });
      }
    } catch (error) {
      setResult({ text: messageOf(error, 'Your answer could not be sent. Try again.'), ok: false });
      // "Watch the part again" (the rewatch a wrong answer asked for is not saved): back to it, or
      // the student would be left at a question they may not answer.
      const rewindTo = error instanceof ApiError && error.status === 409 ? error.body.rewindTo : undefined;
      if (typeof rewindTo === 'number') setTimeout(() => onRewind(rewindTo), 1500);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={classes.backdrop}>
      <form
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={classes.dialog}
        data-testid="checkpoint-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h5" id={titleId}>
            Checkpoint at {formatMoment(checkpoint.t)}
            {checkpoint.required ? ' (required)' : ''}
          </Title>
          <Markup text={checkpoint.prompt} />
          <div ref={first}>
            {checkpoint.kind === 'single' && (
              <Radio.Group value={single} onChange={setSingle} aria-labelledby={titleId}>
                <Choices choices={checkpoint.choices} Choice={Radio} />
              </Radio.Group>
            )}
            {checkpoint.kind === 'multiple' && (
              <Checkbox.Group value={multiple} onChange={setMultiple} aria-labelledby={titleId}>
                <Choices choices={checkpoint.choices} Choice={Checkbox} />
              </Checkbox.Group>
            )}
            {checkpoint.kind === 'output' && (
              <TextBox
                label="What does it print?"
                value={output}
                onValue={setOutput}
                classNames={{ input: classes.output }}
              />
            )}
          </div>
          <Text size="sm" role="status" aria-live="polite" c={result?.ok ? 'teal.8' : 'red.8'} mih={20}>
            {result?.text ?? ''}
          </Text>
          <Group justify="flex-end" gap="xs">
            {!checkpoint.required && (
              <Button variant="subtle" color="gray" onClick={onDone} disabled={busy}>
                Skip
              </Button>
            )}
            <Button type="submit" color="red" loading={busy}>
              Check answer
            </Button>
          </Group>
        </Stack>
      </form>
    </div>
  );
}
