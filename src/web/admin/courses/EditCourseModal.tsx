import type { AdminCourse } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { adminApi } from '../../api/admin';

import { CourseFields, courseValues, toCreateBody, useCourseForm } from './CourseFields';
import { editModalOf, type EditFormProps } from '../ui/EditModal';
import { EditForm } from '../ui/EditForm';
import { useAdminMutation } from '../ui/use-admin-mutation';

function EditCourseForm({ item: course, onDone }: EditFormProps<AdminCourse>) {
  const form = useCourseForm(courseValues(course));
  const save = useAdminMutation(adminApi.updateCourse, {
    success: adminToasts.courseUpdated,
    failure: adminToasts.updateCourseFailed,
    onDone,
  });

  return (
    <EditForm
      pending={save.isPending}
      onCancel={onDone}
      reason={save.reason}
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
      <CourseFields form={form} currentThumbnail={course.thumbnail} />
    </EditForm>
  );
}

/** The Edit modal of /editcoursedetails: every field of the course, Save and Cancel. */
export const EditCourseModal = editModalOf('Edit course', EditCourseForm);
