import { Modal, Select, Stack, Text } from '@mantine/core';

import { useState, type FormEvent } from 'react';
import { GrantDays } from '../../../contract/courses';
import { adminToasts, validation } from '../../../contract/messages';
import { useAdminCourses } from '../../api/admin';
import { studentApi } from '../../api/admin-students';

import { courseLabel, enrolMessage } from '../ui/format';
import { FormActions } from '../ui/FormActions';
import { DaysInput } from '../ui/DaysInput';
import { useAdminMutation } from '../ui/use-admin-mutation';
import { useFieldErrors } from '../ui/use-field-errors';

const CHOOSE_COURSE = 'Please choose a course.';

function EnrolForm({ studentIds, onDone }: { studentIds: string[]; onDone(enrolled: boolean): void }) {
  const courses = useAdminCourses('list');
  const [courseId, setCourseId] = useState<string | null>(null);
  const [days, setDays] = useState<number | string>(30);
  const { errors, setErrors, clearing } = useFieldErrors<'course' | 'days'>();

  const enrol = useAdminMutation(studentApi.enrol, {
    success: enrolMessage,
    failure: adminToasts.grantFailed,
    onDone: () => onDone(true),
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
          {studentIds.length === 1 ? 'The student gets' : `${studentIds.length} selected students get`} access
          to the course for the given days; a student already enrolled gets the days added.
        </Text>
        <Select
          label="Course"
          placeholder="Select Course"
          data={(courses.data ?? []).map((c) => ({ value: c._id, label: courseLabel(c) }))}
          searchable
          value={courseId}
          onChange={clearing('course', setCourseId)}
          error={errors.course}
          nothingFoundMessage={courses.isPending ? 'Loading courses…' : 'No courses found.'}
          comboboxProps={{ withinPortal: true }}
        />
        <DaysInput value={days} onChange={clearing('days', setDays)} error={errors.days} />
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
  title = 'Enrol in a course',
}: {
  studentIds: string[];
  opened: boolean;
  onDone(enrolled: boolean): void;
  title?: string;
}) {
  return (
    <Modal opened={opened} onClose={() => onDone(false)} title={title} centered>
      {opened && <EnrolForm studentIds={studentIds} onDone={onDone} />}
    </Modal>
  );
}
