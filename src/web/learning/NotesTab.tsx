import { ActionIcon, Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { formatMoment, type Note } from '../../contract/learning';
import { messageOf } from '../api/client';
import { useNoteActions, useNotes } from '../api/learning';
import classes from './Learning.module.css';
import { LearningTextarea } from './LearningTextarea';
import { useMoment } from './moment';
import { Markup } from './Markup';
import { MomentList } from './MomentList';

interface Draft {
  noteId?: string;
  t: number;
  text: string;
  resume: boolean;
}

/** The student's notes of this lecture, by time; a form adds one at the current moment. */
export function NotesTab({
  videoId,
  mediaRef,
  openRequest,
}: {
  videoId: string;
  mediaRef: RefObject<HTMLVideoElement | null>;
  /** Bumped by the N key: opens the form at the current moment. */
  openRequest: number;
}) {
  const notes = useNotes(videoId);
  const actions = useNoteActions(videoId);
  const moment = useMoment(mediaRef);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);

  const open = (note?: Note) => {
    const resume = moment.pause();
    setError(null);
    setDraft(
      note ? { noteId: note._id, t: note.t, text: note.text, resume } : { t: moment.now(), text: '', resume },
    );
  };
  const close = (resume: boolean) => {
    setDraft(null);
    if (resume) moment.resume();
  };

  const lastRequest = useRef(openRequest);
  useEffect(() => {
    if (openRequest !== lastRequest.current) {
      lastRequest.current = openRequest;
      open();
    }
  });

  const save = async () => {
    if (!draft) return;
    try {
      if (draft.noteId) await actions.edit.mutateAsync({ noteId: draft.noteId, text: draft.text });
      else await actions.add.mutateAsync({ t: draft.t, text: draft.text });
      close(draft.resume);
    } catch (e) {
      setError(messageOf(e, 'Could not save the note.'));
    }
  };

  return (
    <Stack gap="sm">
      {draft ? (
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            {draft.noteId ? 'Edit note' : 'New note'} at{' '}
            <span className={classes.moment}>{formatMoment(draft.t)}</span>
          </Text>
          <LearningTextarea
            ref={fieldRef}
            autoFocus
            aria-label="Note text"
            value={draft.text}
            onValue={(text) => setDraft({ ...draft, text })}
            onKeyDown={(e) => {
              if (e.key === 'Escape') close(draft.resume);
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save();
            }}
            error={error}
            description="Plain text; ``` for a code block, `backticks` for inline code. Ctrl+Enter saves."
          />
          <Group gap="xs">
            <Button
              size="xs"
              onClick={() => void save()}
              loading={actions.add.isPending || actions.edit.isPending}
            >
              Save note
            </Button>
            <Button size="xs" variant="default" onClick={() => close(draft.resume)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group justify="space-between">
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => open()}>
            Add note here
          </Button>
          <Text size="xs" c="dimmed">
            or press N
          </Text>
        </Group>
      )}
      <MomentList
        query={notes}
        failure="Could not load your notes."
        empty="No notes on this lecture yet. Only you can see your notes."
        label="Your notes"
        onSeek={moment.seek}
      >
        {(note) => (
          <>
            <div style={{ flex: 1, minWidth: 0 }}>
              <Markup text={note.text} />
            </div>
            <Group gap={2} wrap="nowrap">
              <ActionIcon variant="subtle" size="sm" aria-label="Edit note" onClick={() => open(note)}>
                <IconPencil size={14} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                size="sm"
                aria-label="Delete note"
                onClick={() => actions.remove.mutate(note._id)}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
          </>
        )}
      </MomentList>
    </Stack>
  );
}
