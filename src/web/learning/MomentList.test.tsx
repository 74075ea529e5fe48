import { fireEvent, screen, within } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { useQuestions } from '../api/learning';
import { fakeServer, renderRoute, testNote, testQuestion } from '../test-utils';
import { NotesTab } from './NotesTab';
import { QuestionsTab } from './QuestionsTab';

const VIDEO = '11111111-1111-4111-8111-111111111111';
const note = testNote({ _id: 'n1', videoId: VIDEO, t: 65 });
const question = testQuestion({
  _id: 'q1',
  videoId: VIDEO,
  t: 80,
  title: 'Why does the loop stop?',
  text: 'It stops at 3.',
});

function videoRef() {
  const ref = createRef<HTMLVideoElement>() as { current: HTMLVideoElement | null };
  ref.current = document.createElement('video');
  return ref;
}

function Questions({ mediaRef }: { mediaRef: { current: HTMLVideoElement | null } }) {
  return <QuestionsTab videoId={VIDEO} mediaRef={mediaRef} questions={useQuestions(VIDEO)} />;
}

describe('the learning tabs list notes and questions by moment', () => {
  it('notes: each led by its moment, which seeks there', async () => {
    fakeServer({ [`GET /api/videos/${VIDEO}/notes`]: () => ({ body: { notes: [note] } }) });
    const mediaRef = videoRef();
    renderRoute(<NotesTab videoId={VIDEO} mediaRef={mediaRef} openRequest={0} />);
    const list = await screen.findByRole('list', { name: 'Your notes' });
    expect(await within(list).findByText('a note')).toBeInTheDocument();
    fireEvent.click(within(list).getByRole('button', { name: 'Go to 1:05' }));
    expect(mediaRef.current!.currentTime).toBe(65);
    expect(within(list).getByRole('button', { name: 'Delete note' })).toBeInTheDocument();
  });

  it('notes: none yet', async () => {
    fakeServer({ [`GET /api/videos/${VIDEO}/notes`]: () => ({ body: { notes: [] } }) });
    renderRoute(<NotesTab videoId={VIDEO} mediaRef={videoRef()} openRequest={0} />);
    expect(
      await screen.findByText('No notes on this lecture yet. Only you can see your notes.'),
    ).toBeInTheDocument();
  });

  it('questions: a row opens to show the text under it', async () => {
    fakeServer({
      [`GET /api/videos/${VIDEO}/questions`]: () => ({ body: { questions: [question] } }),
      'GET /api/questions/unread': () => ({ body: { unread: 0 } }),
    });
    const mediaRef = videoRef();
    renderRoute(<Questions mediaRef={mediaRef} />);
    const list = await screen.findByRole('list', { name: 'Questions on this lecture' });
    fireEvent.click(await within(list).findByRole('button', { name: 'Go to 1:20' }));
    expect(mediaRef.current!.currentTime).toBe(80);
    expect(within(list).queryByText('It stops at 3.')).not.toBeInTheDocument();
    fireEvent.click(within(list).getByRole('button', { expanded: false }));
    expect(await within(list).findByText('It stops at 3.')).toBeInTheDocument();
    expect(within(list).getByText('No answer yet.')).toBeInTheDocument();
  });

  it('questions: a failed load says so', async () => {
    fakeServer({
      [`GET /api/videos/${VIDEO}/questions`]: () => ({ status: 500, body: { message: 'Boom.' } }),
      'GET /api/questions/unread': () => ({ body: { unread: 0 } }),
    });
    renderRoute(<Questions mediaRef={videoRef()} />);
    expect(await screen.findByText(/Boom\.|Could not load the questions\./)).toBeInTheDocument();
  });
});
