import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { AdminCourse } from '../../../contract/courses';
import { instructorMessages, type InstructorEntry } from '../../../contract/instructors';
import { useAdminCourses } from '../../api/admin';
import { instructorApi, instructorKeys, useInstructors } from '../../api/instructors';
import { ConfirmRemoveModal } from '../ui/ConfirmModal';
import { RowButton } from '../ui/DataTable';
import { Empty } from '../ui/Empty';
import { FormActions } from '../ui/FormActions';
import { formatDateTime } from '../ui/format';
import { LoadedTable } from '../ui/LoadedList';
import { PageHeader } from '../ui/PageHeader';
import { Section } from '../ui/Section';
import { ServerReason } from '../ui/ServerReason';
import { SubmitRow } from '../ui/SubmitRow';
import { useAdminMutation, useChosenMutation } from '../ui/use-admin-mutation';
import { plural } from '../../../contract/plural';

/**
 * /admininstructors: staff who teach some courses only. They sign in at /adminlogin with the same
 * second factor, and reach the videos, captions, students, analytics and questions of the courses
 * set here, nothing else. Creating, changing and removing one wants a fresh second factor.
 */
export default function InstructorsPage() {
  const instructors = useInstructors();
  const courses = useAdminCourses('list');
  const [editing, setEditing] = useState<InstructorEntry | null>(null);
  const remove = useChosenMutation((who: InstructorEntry) => instructorApi.remove(who._id), {
    success: 'Instructor removed.',
    failure: 'Could not remove the instructor.',
    refresh: instructorKeys.all,
  });

  return (
    <>
      <PageHeader
        title="Instructors"
        description="Staff who teach some courses: they upload and edit those courses' videos and captions, see their students, analytics and questions, and answer questions. Nothing else."
      />
      <Stack gap="lg">
        <CreateSection courses={courses.data ?? []} />
        <Section id="instructors-list" title="Instructors and their courses">
          <LoadedTable
            minWidth={560}
            columns={['Instructor', 'Courses', 'Last sign-in', '']}
            query={instructors}
            failure="Could not load the instructors."
            loading="Loading the instructors"
            rows={3}
            empty={
              <Empty title="No instructors yet" description="Create one above and choose their courses." />
            }
          >
            {(who) => (
              <Table.Tr key={who._id} data-testid="instructor-row">
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {who.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {who.username} · {who.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {who.courses.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      None
                    </Text>
                  ) : (
                    <Group gap={4}>
                      {who.courses.map((c) => (
                        <Badge key={c._id} variant="light" color="gray" style={{ textTransform: 'none' }}>
                          {c.name}
                        </Badge>
                      ))}
                    </Group>
                  )}
                </Table.Td>
                <Table.Td>{formatDateTime(who.lastSignInAt) || 'Never'}</Table.Td>
                <Table.Td>
                  <Group gap={6} justify="flex-end" wrap="nowrap">
                    <RowButton
                      variant="default"
                      label={`Edit the courses of ${who.name}`}
                      onClick={() => setEditing(who)}
                    >
                      Courses
                    </RowButton>
                    <RowButton
                      variant="outline"
                      color="red"
                      label={`Remove ${who.name}`}
                      onClick={() => remove.choose(who)}
                    >
                      Remove
                    </RowButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            )}
          </LoadedTable>
        </Section>
      </Stack>
      {editing && (
        <EditCoursesModal who={editing} courses={courses.data ?? []} onClose={() => setEditing(null)} />
      )}
      <ConfirmRemoveModal
        target={remove.target}
        title="Remove this instructor?"
        mutation={remove}
        onClose={remove.close}
      >
        {(who) =>
          `${who.name} (${who.username}) loses their account: they are signed out now and cannot sign in again. Their courses, videos and answers stay.`
        }
      </ConfirmRemoveModal>
    </>
  );
}

/** Checkboxes of every course, by name and batch. */
function CoursePicker({
  courses,
  value,
  onChange,
}: {
  courses: AdminCourse[];
  value: string[];
  onChange(ids: string[]): void;
}) {
  if (courses.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No courses yet: create one first, or assign courses later.
      </Text>
    );
  return (
    <Checkbox.Group label="Courses they teach" value={value} onChange={onChange}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt={6}>
        {courses.map((course) => (
          <Checkbox
            key={course._id}
            value={course._id}
            label={`${course.name} (${course.coursecode}, batch ${course.batch})`}
          />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}

function CreateSection({ courses }: { courses: AdminCourse[] }) {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [courseIds, setCourseIds] = useState<string[]>([]);
  /** The new instructor whose set-up link could not be mailed (the toast passes; this stays). */
  const [notMailed, setNotMailed] = useState<string | null>(null);
  const create = useAdminMutation(instructorApi.create, {
    success: 'Instructor created.',
    failure: 'Could not create the instructor.',
    onDone: (answer) => {
      setNotMailed(
        answer.message === instructorMessages.createdNotMailed ? answer.instructor.username : null,
      );
      setUsername('');
      setEmail('');
      setName('');
      setCourseIds([]);
    },
    refresh: instructorKeys.all,
  });
  const ready = username.trim() !== '' && email.trim() !== '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || create.isPending) return;
    create.mutate({
      username: username.trim(),
      email: email.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      courseIds,
    });
  };

  return (
    <Section id="instructors-create" title="Create an instructor">
      <Text size="sm" c="dimmed">
        The new instructor gets an e-mail with a one-time link: with it they choose their password and set up
        two-step sign-in. No one else ever knows the password.
      </Text>
      {notMailed && (
        <Paper withBorder p="sm" bg="var(--mantine-color-yellow-0)" role="alert">
          <Text size="sm">
            <b>{notMailed}</b>: {instructorMessages.createdNotMailed}
          </Text>
          <Button size="xs" variant="subtle" mt={4} onClick={() => setNotMailed(null)}>
            Done
          </Button>
        </Paper>
      )}
      <form onSubmit={submit} noValidate aria-labelledby="instructors-create">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Username"
              required
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              autoComplete="off"
            />
            <TextInput
              label="E-mail"
              required
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoComplete="off"
            />
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              autoComplete="off"
            />
          </SimpleGrid>
          <CoursePicker courses={courses} value={courseIds} onChange={setCourseIds} />
          <SubmitRow label="Create instructor" mutation={create} disabled={!ready} />
        </Stack>
      </form>
    </Section>
  );
}

function EditCoursesModal({
  who,
  courses,
  onClose,
}: {
  who: InstructorEntry;
  courses: AdminCourse[];
  onClose(): void;
}) {
  const [courseIds, setCourseIds] = useState(who.courses.map((c) => c._id));
  const assign = useAdminMutation(instructorApi.assign, {
    success: 'Courses saved.',
    failure: 'Could not save the courses.',
    onDone: onClose,
    refresh: instructorKeys.all,
  });
  return (
    <Modal opened onClose={onClose} title={`Courses of ${who.name}`} centered>
      <Stack>
        <CoursePicker courses={courses} value={courseIds} onChange={setCourseIds} />
        <Text size="xs" c="dimmed">
          {plural(courseIds.length, 'course')} chosen. They reach only these courses from their next request.
        </Text>
        <ServerReason reason={assign.isError ? assign.reason : null} />
        <FormActions
          label="Save courses"
          pending={assign.isPending}
          onCancel={onClose}
          onConfirm={() => assign.mutate({ userId: who._id, courseIds })}
        />
      </Stack>
    </Modal>
  );
}
