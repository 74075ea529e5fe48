import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { liveMessages, type AdminLiveClass } from '../../../contract/live';
import { useAdminCourses } from '../../api/admin';
import { liveApi, useLiveClasses } from '../../api/live';
import { DataTable } from '../ui/DataTable';
import { Empty } from '../ui/Empty';
import { courseLabel, formatDateTime } from '../ui/format';
import { LoadedList } from '../ui/LoadedList';
import { PageHeader } from '../ui/PageHeader';
import { Section } from '../ui/Section';
import { SubmitRow } from '../ui/SubmitRow';
import { useAdminMutation } from '../ui/use-admin-mutation';
import { ClassFields } from './ClassFields';
import {
  classGroup,
  classWhen,
  emptyClassForm,
  formProblem,
  fromLocalInput,
  type ClassFormValues,
} from './class-form';
import { DeleteClassModal, EditClassModal } from './ClassModals';
import { RecordingLine } from './RecordingStatus';
import { StatusBadge } from './StatusBadge';

const GROUPS = [
  { key: 'live', title: 'Live now', empty: 'No class is live.' },
  { key: 'upcoming', title: 'Upcoming', empty: 'No class is scheduled: schedule one above.' },
  { key: 'ended', title: 'Ended', empty: 'No class has ended yet.' },
] as const;

/**
 * /adminlive: live classes of the courses this staff member manages (docs/LIVE.md). Schedule one
 * (course, title, description, start, length; the server refuses a start outside the opening hours
 * with its reason shown under the form), and see, edit or delete the classes live now, upcoming and
 * ended; an ended class's row says where its recording's packaging is (asked again every 2 s while
 * one is on its way). A class's page (/adminlive/:classId) has its ingest addresses, key and attendance.
 */
export default function LiveClassesPage() {
  const courses = useAdminCourses('video');
  return (
    <Stack gap="lg">
      <PageHeader
        title="Live classes"
        description="Schedule a class, stream it from OBS to its address, and its students watch it live in the course; the recording is a lecture of the course when the class ends."
      />
      <ScheduleSection courses={courses.data ?? []} />
      <ClassesSection courses={courses.data ?? []} />
    </Stack>
  );
}

type CourseChoice = { _id: string; name: string; batch: number };

/** The classes by group, each row with its actions; Edit and Delete open their dialogs. */
function ClassesSection({ courses }: { courses: CourseChoice[] }) {
  const classes = useLiveClasses();
  const [editing, setEditing] = useState<AdminLiveClass | null>(null);
  const [deleting, setDeleting] = useState<AdminLiveClass | null>(null);
  const courseName = (id: string) => {
    const course = courses.find((c) => c._id === id);
    return course ? courseLabel(course) : '';
  };
  const actionsOf = (c: AdminLiveClass) =>
    [
      // A live class keeps its time and cannot be deleted (stop the encoder first); an ended one is a lecture.
      c.status !== 'ended' && { verb: 'Edit', variant: 'default', color: undefined, open: setEditing },
      c.status !== 'live' && { verb: 'Delete', variant: 'outline', color: 'red', open: setDeleting },
    ].filter((a) => a !== false);
  return (
    <Section id="live-list" title="Classes">
      <LoadedList
        query={classes}
        failure="Could not load the live classes."
        loading="Loading the live classes"
        empty={<Empty title="No live classes yet" description="Schedule one above." />}
      >
        {(list) => (
          <Stack gap="lg">
            {GROUPS.map((group) => (
              <ClassGroup
                key={group.key}
                group={group}
                rows={inGroup(list, group.key)}
                courseName={courseName}
                actionsOf={actionsOf}
              />
            ))}
          </Stack>
        )}
      </LoadedList>
      <EditClassModal item={editing} onClose={() => setEditing(null)} />
      <DeleteClassModal live={deleting} onClose={() => setDeleting(null)} />
    </Section>
  );
}

/** The classes of a group: upcoming and live soonest first, ended newest first. */
function inGroup(list: AdminLiveClass[], key: (typeof GROUPS)[number]['key']) {
  const newestFirst = key === 'ended' ? -1 : 1;
  return list
    .filter((c) => classGroup(c) === key)
    .sort((a, b) => newestFirst * a.startsAt.localeCompare(b.startsAt));
}

interface RowAction {
  verb: string;
  variant: string;
  color: string | undefined;
  open(c: AdminLiveClass): void;
}

function ClassGroup({
  group,
  rows,
  courseName,
  actionsOf,
}: {
  group: (typeof GROUPS)[number];
  rows: AdminLiveClass[];
  courseName(id: string): string;
  actionsOf(c: AdminLiveClass): RowAction[];
}) {
  return (
    <Stack gap={6} component="section" aria-labelledby={`live-${group.key}`}>
      <Text fw={600} id={`live-${group.key}`}>
        {group.title}{' '}
        <Badge variant="light" color="gray" size="sm">
          {rows.length}
        </Badge>
      </Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {group.empty}
        </Text>
      ) : (
        // On a phone the time goes under the title and the status is the section's: the row keeps
        // its actions in view instead of scrolling them sideways.
        <DataTable
          minWidth={300}
          columns={[
            'Class',
            <Table.Th key="when" visibleFrom="sm">
              When
            </Table.Th>,
            <Table.Th key="status" visibleFrom="sm">
              Status
            </Table.Th>,
            '',
          ]}
        >
          {rows.map((c) => (
            <Table.Tr key={c._id} data-testid="live-class-row">
              <Table.Td>
                <Anchor component={Link} to={`/adminlive/${c._id}`} fw={500} size="sm">
                  {c.title}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {courseName(c.courseId)}
                </Text>
                <Text size="xs" hiddenFrom="sm">
                  {classWhen(c, formatDateTime)}
                </Text>
                {c.recording && <RecordingLine recording={c.recording} />}
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Text size="sm">{classWhen(c, formatDateTime)}</Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <StatusBadge status={c.status} />
              </Table.Td>
              <Table.Td>
                <Group gap={6} justify="flex-end" wrap="nowrap">
                  {actionsOf(c).map((action) => (
                    <Button
                      key={action.verb}
                      size="xs"
                      variant={action.variant}
                      color={action.color}
                      onClick={() => action.open(c)}
                      aria-label={`${action.verb} ${c.title}`}
                    >
                      {action.verb}
                    </Button>
                  ))}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
    </Stack>
  );
}

function ScheduleSection({ courses }: { courses: CourseChoice[] }) {
  const [values, setValues] = useState<ClassFormValues>(emptyClassForm);
  const [tried, setTried] = useState(false);
  const create = useAdminMutation(liveApi.create, {
    success: liveMessages.created,
    failure: 'Could not schedule the class.',
    onDone: () => {
      setValues(emptyClassForm());
      setTried(false);
    },
  });
  const problem = formProblem(values, true);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problem || create.isPending) return;
    create.mutate({
      courseId: values.courseId!,
      title: values.title.trim(),
      description: values.description.trim(),
      startsAt: fromLocalInput(values.startsLocal),
      minutes: Number(values.minutes),
    });
  };
  return (
    <Section id="live-schedule" title="Schedule a class">
      <form onSubmit={submit} noValidate aria-labelledby="live-schedule">
        <Stack gap="sm">
          <ClassFields values={values} onChange={setValues} courses={courses} idPrefix="schedule" />
          {tried && problem && (
            <Text size="sm" c="red.7" role="alert">
              {problem}
            </Text>
          )}
          <SubmitRow label="Schedule class" mutation={create} />
        </Stack>
      </form>
    </Section>
  );
}
