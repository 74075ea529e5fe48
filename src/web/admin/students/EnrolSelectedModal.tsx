import { Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { GrantDays } from '../../../contract/courses';
import { adminToasts, validation } from '../../../contract/messages';
import { adminKeys, useAdminCourses } from '../../api/admin';
import { studentApi } from '../../api/admin-students';
import { messageOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { enrolSummary } from '../access/AddStudentsModal';
import { courseLabel } from '../ui/format';
import { FormActions } from '../ui/FormActions';
import { DaysInput } from '../access/DaysInput';

const CHOOSE_COURSE = 'Please choose a course.';

function EnrolForm({ studentIds, onDone }: { studentIds: string[]; onDone(enrolled: boolean): void }) {
  const queryClient = useQueryClient();
  const courses = useAdminCourses('list');
  const [courseId, setCourseId] = useState<string | null>(null);
  const [days, setDays] = useState<number | string>(30);
  const [errors, setErrors] = useState<{ course?: string; days?: string }>({});

  const enrol = useMutation({
    mutationFn: studentApi.enrol,
    onSuccess: async (result) => {
      const summary = enrolSummary(result);
      toast.success(summary ? `${result.message} ${summary}.` : result.message);
      onDone(true);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.grantFailed)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = GrantDays.safeParse(days);
    const next = {
      course: courseId ? undefined : CHOOSE_COURSE,
      days: parsed.success ? undefined : validation.grantDays,
    };
    setErrors(next);
    if (!courseId || !parsed.success) return;
    enrol.mutate({ courseId, studentIds, days: parsed.data });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          {studentIds.length} selected student{studentIds.length === 1 ? '' : 's'} get access to the course
          for the given days; those already enrolled get the days added.
        </Text>
        <Select
          label="Course"
          placeholder="Select Course"
          data={(courses.data ?? []).map((c) => ({ value: c._id, label: courseLabel(c) }))}
          searchable
          value={courseId}
          onChange={(value) => {
            setCourseId(value);
            setErrors((e) => ({ ...e, course: undefined }));
          }}
          error={errors.course}
          nothingFoundMessage={courses.isPending ? 'Loading courses…' : 'No courses found.'}
          comboboxProps={{ withinPortal: true }}
        />
        <DaysInput
          value={days}
          onChange={(value) => {
            setDays(value);
            setErrors((e) => ({ ...e, days: undefined }));
          }}
          error={errors.days}
        />
        <FormActions label="Enrol" pending={enrol.isPending} onCancel={() => onDone(false)} />
      </Stack>
    </form>
  );
}

/** Enrols the selected students in one course for N days (POST /students/enrol). */
export function EnrolSelectedModal({
  studentIds,
  opened,
  onDone,
}: {
  studentIds: string[];
  opened: boolean;
  onDone(enrolled: boolean): void;
}) {
  return (
    <Modal opened={opened} onClose={() => onDone(false)} title="Enrol in a course" centered>
      {opened && <EnrolForm studentIds={studentIds} onDone={onDone} />}
    </Modal>
  );
}
