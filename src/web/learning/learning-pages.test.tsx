import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QUESTION_QUEUE_POLL_MS } from '../api/learning';
import QuestionQueuePage from '../admin/questions/QuestionQueuePage';
import { fakeServer, renderRoute, testQuestion } from '../test-utils';
import MyNotesPage from './MyNotesPage';

const COURSE = '22222222-2222-4222-8222-222222222222';
const notesOf = (videos: unknown[]) => ({ body: { course: { _id: COURSE, name: 'Web 101' }, videos } });

describe('the learning pages while their list loads, fails, is empty or has items', () => {
  it('My notes: placeholders, then the empty text', async () => {
    fakeServer({ [`GET /api/courses/${COURSE}/notes`]: () => notesOf([]) });
    const { container } = renderRoute(<MyNotesPage />, {
      path: '/course/:courseId/notes',
      url: `/course/${COURSE}/notes`,
    });
    expect(container.querySelector('[aria-busy="true"]')!.children).toHaveLength(3);
    expect(await screen.findByText(/No notes in this course yet\./)).toBeInTheDocument();
  });

  it("My notes: the server's reason when the load fails", async () => {
    fakeServer({
      [`GET /api/courses/${COURSE}/notes`]: () => ({ status: 403, body: { message: 'No access.' } }),
    });
    renderRoute(<MyNotesPage />, { path: '/course/:courseId/notes', url: `/course/${COURSE}/notes` });
    expect(await screen.findByText('No access.')).toBeInTheDocument();
  });

  it('the question queue: empty, then a question', async () => {
    let questions: unknown[] = [];
    fakeServer({ 'GET /api/admin/questions': () => ({ body: { questions } }) });
    const { unmount } = renderRoute(<QuestionQueuePage />);
    expect(await screen.findByText('No questions here.')).toBeInTheDocument();
    unmount();
    questions = [
      {
        ...testQuestion({ _id: 'q1', videoId: 'v1', t: 5, title: 'Why the loop?' }),
        videoTitle: 'Loops',
        courseId: COURSE,
        courseName: 'Web 101',
      },
    ];
    renderRoute(<QuestionQueuePage />);
    expect(await screen.findByText('Why the loop?')).toBeInTheDocument();
  });

  it('the question queue: a question asked while it is on screen (a live class) shows without a reload', async () => {
    vi.useFakeTimers({
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
      shouldAdvanceTime: true,
    });
    let questions: unknown[] = [];
    fakeServer({ 'GET /api/admin/questions': () => ({ body: { questions } }) });
    renderRoute(<QuestionQueuePage />);
    expect(await screen.findByText('No questions here.')).toBeInTheDocument();
    questions = [
      {
        ...testQuestion({ _id: 'q2', videoId: 'v2', t: 754, title: 'Asked during the class' }),
        videoTitle: 'Closures, live',
        courseId: COURSE,
        courseName: 'Web 101',
      },
    ];
    await act(() => vi.advanceTimersByTimeAsync(QUESTION_QUEUE_POLL_MS));
    expect(await screen.findByText('Asked during the class')).toBeInTheDocument();
    expect(screen.getByText(/Closures, live at 12:34/)).toBeInTheDocument();
  });
});

afterEach(() => vi.useRealTimers());
