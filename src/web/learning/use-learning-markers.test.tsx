import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNoteActions, useQuestionActions } from '../api/learning';
import { PlayerControls } from '../player/PlayerControls';
import { controlsProps, fakeServer, pausedMedia, renderRoute, testNote, testQuestion } from '../test-utils';
import { useLearningMarkers } from './use-learning-markers';

const VIDEO = '11111111-1111-4111-8111-111111111111';
const media = pausedMedia();
const note = (id: string, t: number) => testNote({ _id: id, videoId: VIDEO, t });
const question = (id: string, t: number, title: string) =>
  testQuestion({ _id: id, videoId: VIDEO, t, title });

/** The player's controls fed by the hook, with buttons that add and delete through the app's mutations. */
function Harness({ onSeek }: { onSeek(seconds: number): void }) {
  const markers = useLearningMarkers(VIDEO);
  const notes = useNoteActions(VIDEO);
  const questions = useQuestionActions(VIDEO);
  return (
    <>
      <PlayerControls {...controlsProps({ media, duration: 100, actions: { seekTo: onSeek }, markers })} />
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
