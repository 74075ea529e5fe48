import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuthCheckResponse } from '../../contract/auth';
import { useCourses } from '../api/student';
import { fakeServer, renderRoute } from '../test-utils';
import { StudentGate } from './StudentGate';

function CoursesProbe() {
  const courses = useCourses();
  return <p>{courses.isError ? 'courses failed' : 'student page'}</p>;
}

function renderGate(mode: 'student' | 'reset' = 'student') {
  return renderRoute(
    <StudentGate mode={mode}>
      <CoursesProbe />
    </StudentGate>,
    {
      path: '/dashboard',
      extra: [
        { path: '/', element: <p>sign-in page</p> },
        { path: '/reset-password', element: <p>reset page</p> },
        { path: '/admindashboard', element: <p>admin dashboard</p> },
      ],
    },
  );
}

const session = (answer: AuthCheckResponse) => ({ 'GET /api/auth/check': () => ({ body: answer }) });

describe('StudentGate', () => {
  it('shows a checking spinner, then the page for a signed-in student', async () => {
    fakeServer({
      ...session({ valid: true, role: 'student', firstlogin: false }),
      'GET /api/courses': () => ({ body: { courses: [] } }),
    });
    renderGate();
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session…');
    expect(await screen.findByText('student page')).toBeInTheDocument();
  });

  it('sends an admin to the admin dashboard with the error toast', async () => {
    fakeServer(session({ valid: true, role: 'admin', firstlogin: false }));
    renderGate();
    expect(await screen.findByText('admin dashboard')).toBeInTheDocument();
    expect(screen.getByText('Admins are not allowed to access student pages.')).toBeInTheDocument();
  });

  it('sends a first login to the reset page', async () => {
    fakeServer(session({ valid: true, role: 'student', firstlogin: true }));
    renderGate();
    expect(await screen.findByText('reset page')).toBeInTheDocument();
    expect(screen.getByText('Please reset your password before continuing.')).toBeInTheDocument();
  });

  it('sends a visitor without a session to sign-in', async () => {
    fakeServer(session({ valid: false }));
    renderGate();
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(screen.getByText('Unauthorized access. Please log in.')).toBeInTheDocument();
  });

  it('lets the reset page be used without a session (forgot password)', async () => {
    fakeServer({ ...session({ valid: false }), 'GET /api/courses': () => ({ body: { courses: [] } }) });
    renderGate('reset');
    expect(await screen.findByText('student page')).toBeInTheDocument();
  });

  it('notices a session that ended under the page from a 401 and says it expired', async () => {
    let valid = true;
    fakeServer({
      'GET /api/auth/check': () => ({
        body: valid ? { valid: true, role: 'student', firstlogin: false } : { valid: false },
      }),
      'GET /api/courses': () =>
        valid ? { body: { courses: [] } } : { status: 401, body: { message: 'Please sign in.' } },
    });
    const { queryClient } = renderGate();
    expect(await screen.findByText('student page')).toBeInTheDocument();
    valid = false;
    await act(() => queryClient.refetchQueries({ queryKey: ['student', 'courses'] }));
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(screen.getByText('Session expired. Please log in again.')).toBeInTheDocument();
  });
});
