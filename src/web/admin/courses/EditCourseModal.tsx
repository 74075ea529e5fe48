import { Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCourse } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { adminApi, adminKeys } from '../../api/admin';
import { messageOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { CourseFields, courseValues, toCreateBody, useCourseForm } from './CourseFields';
import { FormActions } from '../ui/FormActions';

function EditCourseForm({ course, onDone }: { course: AdminCourse; onDone(): void }) {
  const form = useCourseForm(courseValues(course));
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: adminApi.updateCourse,
    onSuccess: async ({ message }) => {
      toast.success(message || adminToasts.courseUpdated);
      onDone();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.updateCourseFailed)),
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        const body = toCreateBody(values);
        save.mutate({
          courseId: course._id,
          batch: body.batch,
          courseCode: body.coursecode,
          name: body.name,
          description: body.description,
          thumbnail: body.thumbnail,
          startDate: body.startdate,
          endDate: body.enddate,
        });
      })}
    >
      <Stack>
        <CourseFields form={form} currentThumbnail={course.thumbnail} />
        <FormActions label="Save" pending={save.isPending} onCancel={onDone} />
      </Stack>
    </form>
  );
}

/** The Edit modal of /editcoursedetails: every field of the course, Save and Cancel. */
export function EditCourseModal({ course, onClose }: { course: AdminCourse | null; onClose(): void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={course !== null} onClose={onClose} title="Edit course" size="lg" fullScreen={phone}>
      {course && <EditCourseForm key={course._id} course={course} onDone={onClose} />}
    </Modal>
  );
}
