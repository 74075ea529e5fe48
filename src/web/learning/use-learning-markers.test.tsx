import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Note, Question } from '../../contract/learning';
import { useNoteActions, useQuestionActions } from '../api/learning';
import { PlayerControls } from '../player/PlayerControls';
import type { MediaState } from '../player/use-media-state';
import { fakeServer, renderRoute } from '../test-utils';
import { useLearningMarkers } from './use-learning-markers';

const VIDEO = '11111111-1111-4111-8111-111111111111';
const media: MediaState = {
  playing: false,
  currentTime: 0,
  duration: 100,
  volume: 1,
  muted: false,
  rate: 1,
  buffering: false,
  ended: false,
};

const note = (id: string, t: number): Note => ({
  _id: id,
  videoId: VIDEO,
  t,
  text: 'a note',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const question = (id: string, t: number, title: string): Question => ({
  _id: id,
  videoId: VIDEO,
  t,
  title,
  text: '',
  status: 'open',
  mine: false,
  meToo: 0,
  meTooMine: false,
  unread: 0,
  answers: [],
  frameUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});

/** The player's controls fed by the hook, with buttons that add and delete through the app's mutations. */
function Harness({ onSeek }: { onSeek(seconds: number): void }) {
  const markers = useLearningMarkers(VIDEO);
  const notes = useNoteActions(VIDEO);
  const questions = useQuestionActions(VIDEO);
  const noop = () => {};
  return (
    <>
      <PlayerControls
        media={media}
        duration={100}
        fullscreen={false}
        visible
        onTogglePlay={noop}
        onSeek={onSeek}
        onToggleMute={noop}
        onVolume={noop}
        onCycleSpeed={noop}
        onToggleFullscreen={noop}
        onFocusChange={noop}
        markers={markers}
      />
      <button type="button" onClick={() => notes.add.mutate({ t: 30, text: 'later' })}>
        add note
      </button>
      <button type="button" onClick={() => notes.remove.mutate('n1')}>
        delete note
      </button>
      <button type="button" onClick={() => questions.ask.mutate({ t: 80, title: 'Why?', text: '' })}>
        ask
      </button>
    </>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('useLearningMarkers: notes and questions on the seek bar', () => {
  it('names each marker, tells notes from questions, seeks on click, follows adds and deletes', async () => {
    let notes = [note('n1', 65)];
    let questions = [question('q1', 65, 'Why does the loop stop?')];
    fakeServer({
      [`GET /api/videos/${VIDEO}/notes`]: () => ({ body: { notes } }),
      [`GET /api/videos/${VIDEO}/questions`]: () => ({ body: { questions } }),
      [`POST /api/videos/${VIDEO}/notes`]: () => {
        notes = [...notes, note('n2', 30)];
        return { status: 201, body: { message: 'Note saved.', note: notes.at(-1) } };
      },
      'DELETE /api/notes/n1': () => {
        notes = notes.filter((n) => n._id !== 'n1');
        return { body: { message: 'Note deleted.' } };
      },
      [`POST /api/videos/${VIDEO}/questions`]: () => {
        questions = [...questions, question('q2', 80, 'Why?')];
        return { status: 201, body: { message: 'Question posted.', question: questions.at(-1) } };
      },
      'GET /api/questions/unread': () => ({ body: { unread: 0 } }),
    });
    const onSeek = vi.fn();
    renderRoute(<Harness onSeek={onSeek} />);

    const group = await screen.findByRole('group', { name: 'Moments marked on the timeline' });
    const noteMarker = await within(group).findByRole('button', { name: 'Note at 01:05' });
    const questionMarker = within(group).getByRole('button', {
      name: 'Question at 01:05: Why does the loop stop?',
    });
    expect(noteMarker).toHaveAttribute('data-kind', 'note');
    expect(questionMarker).toHaveAttribute('data-kind', 'question');
    expect(noteMarker.style.left).toBe('65%');

    fireEvent.click(questionMarker);
    expect(onSeek).toHaveBeenLastCalledWith(65);

    fireEvent.click(screen.getByRole('button', { name: 'add note' }));
    const added = await within(group).findByRole('button', { name: 'Note at 00:30' });
    fireEvent.click(added);
    expect(onSeek).toHaveBeenLastCalledWith(30);
    // Sorted by moment.
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Note at 00:30', 'Note at 01:05', 'Question at 01:05: Why does the loop stop?']);

    fireEvent.click(screen.getByRole('button', { name: 'ask' }));
    await within(group).findByRole('button', { name: 'Question at 01:20: Why?' });

    fireEvent.click(screen.getByRole('button', { name: 'delete note' }));
    await waitFor(() =>
      expect(within(group).queryByRole('button', { name: 'Note at 01:05' })).not.toBeInTheDocument(),
    );
  });
});
