import { Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { GrantDays } from '../../../contract/courses';
import { adminToasts, validation } from '../../../contract/messages';
import { studentApi } from '../../api/admin-students';
import { adminKeys } from '../../api/admin';
import { messageOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { StudentPicker } from '../students/StudentPicker';
import { FormActions } from '../ui/FormActions';
import { DaysInput } from './DaysInput';

export interface EnrolTarget {
  courseId: string;
  label: string;
}

function plural(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What an enrol call did, in one line. */
export function enrolSummary(r: { enrolled: number; granted: number; extended: number }): string {
  const parts = [
    r.enrolled && `${plural(r.enrolled, 'student')} enrolled`,
    r.granted && `${r.granted} re-granted`,
    r.extended && `${r.extended} extended`,
  ].filter(Boolean);
  return parts.join(', ');
}

function EnrolForm({ target, onClose }: { target: EnrolTarget; onClose(): void }) {
  const queryClient = useQueryClient();
  const [ids, setIds] = useState<string[]>([]);
  const [days, setDays] = useState<number | string>(30);
  const [errors, setErrors] = useState<{ students?: string; days?: string }>({});

  const enrol = useMutation({
    mutationFn: studentApi.enrol,
    onSuccess: async (result) => {
      const summary = enrolSummary(result);
      toast.success(summary ? `${result.message} ${summary}.` : result.message);
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.grantFailed)),
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
          onChange={(next) => {
            setIds(next);
            setErrors((e) => ({ ...e, students: undefined }));
          }}
          courseId={target.courseId}
          error={errors.students}
        />
        <DaysInput
          value={days}
          onChange={(value) => {
            setDays(value);
            setErrors((e) => ({ ...e, days: undefined }));
          }}
          error={errors.days}
        />
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
