import { Modal, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AddStudentBody } from '../../../contract/admin-students';
import { studentApi, adminStudentKeys } from '../../api/admin-students';
import { messageOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { FormActions } from '../ui/FormActions';
import { FormTextInput } from '../ui/FormTextInput';

const FAILED = 'Failed to add the student.';

function AddStudentForm({ onClose }: { onClose(): void }) {
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { rollno: '', name: '', email: '', username: '' },
    validate: schemaResolver(AddStudentBody, { sync: true }),
    transformValues: (v) => ({ ...v, username: v.username.trim() || undefined }),
    validateInputOnBlur: true,
  });
  const add = useMutation({
    mutationFn: studentApi.add,
    onSuccess: async ({ message, mailed }) => {
      if (mailed) toast.success(message);
      else toast.error(message);
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminStudentKeys.all });
    },
    onError: (error) => toast.error(messageOf(error, FAILED)),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => add.mutate(AddStudentBody.parse(values)))}>
      <Stack>
        <Text size="sm" c="dimmed">
          A one-time initial password is generated and mailed to the student, who sets their own at first
          sign-in.
        </Text>
        <FormTextInput form={form} field="rollno" label="Roll No" withAsterisk data-autofocus />
        <FormTextInput form={form} field="name" label="Name" withAsterisk />
        <FormTextInput form={form} field="email" label="Email" type="email" withAsterisk />
        <FormTextInput
          form={form}
          field="username"
          label="Username"
          description="Optional; the roll number in lower case when left empty."
        />
        <FormActions label="Add student" pending={add.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}

/** One new student (POST /api/admin/students). */
export function AddStudentModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add a student" centered>
      {opened && <AddStudentForm onClose={onClose} />}
    </Modal>
  );
}
