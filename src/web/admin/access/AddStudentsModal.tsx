import { Modal, Stack, Text } from '@mantine/core';

import { useState, type FormEvent } from 'react';
import { GrantDays } from '../../../contract/courses';
import { adminToasts, validation } from '../../../contract/messages';
import { studentApi } from '../../api/admin-students';

import { StudentPicker } from '../students/StudentPicker';
import { enrolMessage } from '../ui/format';
import { FormActions } from '../ui/FormActions';
import { DaysInput } from '../ui/DaysInput';
import { useAdminMutation } from '../ui/use-admin-mutation';
import { useFieldErrors } from '../ui/use-field-errors';
import { plural } from '../../../contract/plural';

export interface EnrolTarget {
  courseId: string;
  label: string;
}

function EnrolForm({ target, onClose }: { target: EnrolTarget; onClose(): void }) {
  const [ids, setIds] = useState<string[]>([]);
  const [days, setDays] = useState<number | string>(30);
  const { errors, setErrors, clearing } = useFieldErrors<'students' | 'days'>();

  const enrol = useAdminMutation(studentApi.enrol, {
    success: enrolMessage,
    failure: adminToasts.grantFailed,
    onDone: onClose,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsedDays = GrantDays.safeParse(days);
    const next = {
      students: ids.length ? undefined : validation.noStudents,
      days: parsedDays.success ? undefined : validation.grantDays,
    };
    setErrors(next);
    if (next.students || !parsedDays.success) return;
    enrol.mutate({ courseId: target.courseId, studentIds: ids, days: parsedDays.data });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          Enrol students in <b>{target.label}</b>. Students already enrolled get the days added to their
          access.
        </Text>
        <StudentPicker
          value={ids}
          onChange={clearing('students', setIds)}
          courseId={target.courseId}
          error={errors.students}
        />
        <DaysInput value={days} onChange={clearing('days', setDays)} error={errors.days} />
        <FormActions
          label={ids.length ? `Enrol ${plural(ids.length, 'student')}` : 'Enrol'}
          pending={enrol.isPending}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}

/** "Add students": enrols students of the school in a course for N days (POST /students/enrol). */
export function AddStudentsModal({ target, onClose }: { target: EnrolTarget | null; onClose(): void }) {
  return (
    <Modal opened={target !== null} onClose={onClose} title="Add students" size="lg" centered>
      {target && <EnrolForm target={target} onClose={onClose} />}
    </Modal>
  );
}
