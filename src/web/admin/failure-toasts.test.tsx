import { notifications } from '@mantine/notifications';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminCourse } from '../../contract/courses';
import { adminToasts } from '../../contract/messages';
import type { AdminVideo } from '../../contract/videos';
import { fakeServer, renderRoute } from '../test-utils';
import { EditCourseModal } from './courses/EditCourseModal';
import { DeleteVideoModal } from './videos/DeleteVideoModal';
import { VideoAccessPanel } from './videos/VideoAccessPanel';

// Toasts live in a module-level store: each test starts with none.
beforeEach(() => notifications.clean());

/** A toast's text, as the user reads it in the notification. */
const toast = (text: string) => screen.findByText(text, { selector: '.mantine-Notification-description' });

const video: AdminVideo = {
  _id: 'v1',
  title: 'Closures',
  description: 'Functions that remember.',
  thumbnail: '/thumbs/v1.jpg',
  customThumbnail: null,
  url: '/stream/videos/v1/master.m3u8',
  duration: '12:30',
  course: { _id: 'c1', name: 'JavaScript', batch: 3 },
  deleteUrl: '/stream/videos/v1',
  status: 'ready',
  failureReason: null,
  sourceName: 'closures.mp4',
};

const course: AdminCourse = {
  _id: 'c1',
  batch: 3,
  coursecode: 'JS',
  name: 'JavaScript',
  description: 'The language of the web.',
  thumbnail: null,
  startdate: '2026-01-05',
  enddate: '2026-06-30',
  totalvideos: 1,
  totalstudents: 2,
};

// SPEC.md section 8 names these failure toasts without "server message preferred": the text is the
// catalogue's whatever the server answered, and the server's own words stay out of the toast.
describe("the admin's failure toasts are the catalogue's texts", () => {
  it("Delete Video: 'Failed to delete video'", async () => {
    fakeServer({
      'DELETE /stream/videos/v1': () => ({ body: { message: 'Deleted.' } }),
      'POST /api/admin/delete/video': () => ({ status: 409, body: { message: 'The video is busy.' } }),
    });
    const user = userEvent.setup();
    renderRoute(<DeleteVideoModal video={video} onClose={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Delete Video' }));
    expect(await toast(adminToasts.deleteVideoFailed)).toBeInTheDocument();
    expect(screen.queryByText('The video is busy.')).not.toBeInTheDocument();
  });

  it("Give Access: 'Failed to update access'", async () => {
    const reason = "Some selected students are not enrolled in this video's course.";
    fakeServer({
      'POST /api/admin/students/access': () => ({
        body: {
          studentsWithAccess: [],
          studentsWithoutAccess: [
            { _id: 's1', rollno: 'JS-01', name: 'Asha Rao', email: 'asha@example.test' },
          ],
        },
      }),
      'POST /api/admin/video/grant': () => ({ status: 409, body: { message: reason } }),
    });
    const user = userEvent.setup();
    renderRoute(<VideoAccessPanel video={video} opened onDelete={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Give Access' }));
    expect(await toast(adminToasts.accessUpdateFailed)).toBeInTheDocument();
    expect(screen.queryByText(reason)).not.toBeInTheDocument();
  });

  it("Edit course: 'Failed to update course.', and the server's reason under the form", async () => {
    const reason = 'This course code is already used in this batch.';
    fakeServer({ 'POST /api/admin/course/update': () => ({ status: 409, body: { message: reason } }) });
    const user = userEvent.setup();
    renderRoute(<EditCourseModal item={course} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Edit course' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await toast(adminToasts.updateCourseFailed)).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(reason);
  });
});
