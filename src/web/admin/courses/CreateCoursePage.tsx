import { Alert, Anchor, Group, Paper, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminCourse } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { adminApi, adminKeys } from '../../api/admin';
import { reasonOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { PageHeader } from '../ui/PageHeader';
import { courseLabel } from '../ui/format';
import { CourseFields, toCreateBody, useCourseForm } from './CourseFields';
import { FormActions } from '../ui/FormActions';
import { ServerReason } from '../ui/ServerReason';

/** /admincourse: a new course of a batch (SPEC.md section 2, validation of section 5). */
export default function CreateCoursePage() {
  const form = useCourseForm();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<AdminCourse | null>(null);
  const [reason, setReason] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: adminApi.createCourse,
    onSuccess: async ({ message, course }) => {
      toast.success(message || adminToasts.courseCreated);
      setReason(null);
      setCreated(course);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: adminKeys.courses });
      await queryClient.invalidateQueries({ queryKey: adminKeys.accessLists });
    },
    onError: (error) => {
      toast.error(adminToasts.createCourseFailed);
      setCreated(null);
      setReason(reasonOf(error));
    },
  });

  return (
    <Stack maw={760}>
      <PageHeader
        title="Create Course"
        description="A course belongs to one batch; its code must be unique within the batch."
      />
      {created && (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck size={18} aria-hidden="true" />}
          title={`Created ${courseLabel(created)}`}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setCreated(null)}
        >
          <Group gap="md">
            <Anchor component={Link} to="/editcourse" replace size="sm">
              Add students
            </Anchor>
            <Anchor component={Link} to="/adminvideo" replace size="sm">
              Upload a video
            </Anchor>
            <Anchor component={Link} to={`/admin/course/${created._id}`} replace size="sm">
              Open the course
            </Anchor>
          </Group>
        </Alert>
      )}
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <form
          noValidate
          onSubmit={form.onSubmit((values) => {
            if (!create.isPending) create.mutate(toCreateBody(values));
          })}
        >
          <Stack>
            <CourseFields form={form} />
            <ServerReason reason={reason} />
            <FormActions
              label="Create Course"
              pending={create.isPending}
              onCancel={() => form.reset()}
              cancelLabel="Clear"
            />
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
