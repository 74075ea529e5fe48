import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  Menu,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconChartAreaLine,
  IconDots,
  IconFileImport,
  IconHistory,
  IconMailForward,
  IconSchool,
  IconUserPlus,
} from '@tabler/icons-react';

import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { AdminStudent, StudentCourseAccess } from '../../../contract/admin-students';
import { STUDENT_PAGE_SIZE } from '../../../contract/admin-students';
import { adminMessages } from '../../../contract/messages';
import { useAdminCourses } from '../../api/admin';
import { studentApi, useStudents } from '../../api/admin-students';

import { toastOnce } from '../../ui/toast';
import { Empty } from '../ui/Empty';
import { courseLabel, formatDateTime } from '../ui/format';
import { LoadError } from '../ui/LoadError';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import classes from '../ui/tables.module.css';
import { AddStudentModal } from './AddStudentModal';
import { EnrolSelectedModal } from './EnrolSelectedModal';
import { HistoryDrawer } from './HistoryDrawer';
import { ImportStudentsModal } from './ImportStudentsModal';

import { DataTable } from '../ui/DataTable';
import { useAdminMutation } from '../ui/use-admin-mutation';
import { ConfirmModal } from '../ui/ConfirmModal';
import { SearchInput } from '../ui/SearchInput';
import { AnalyticsLink, analyticsPath } from '../analytics/AnalyticsLink';

const LIST_FAILED = 'Failed to load students.';
const ACCESS_COLORS = { active: 'teal', expired: 'gray', revoked: 'red' } as const;

function CourseBadges({ courses }: { courses: StudentCourseAccess[] }) {
  if (courses.length === 0)
    return (
      <Text size="xs" c="dimmed">
        None
      </Text>
    );
  return (
    <Group gap={4}>
      {courses.map((c) => (
        <Badge
          key={c.courseId}
          size="sm"
          variant="light"
          color={ACCESS_COLORS[c.access]}
          title={`${c.name} (Batch ${c.batch}): ${c.access}`}
          styles={{ label: { textTransform: 'none' } }}
        >
          {c.name} · B{c.batch}
          {c.access !== 'active' ? ` · ${c.access}` : ''}
        </Badge>
      ))}
    </Group>
  );
}

function ResendPasswordModal({ student, onClose }: { student: AdminStudent | null; onClose(): void }) {
  const resend = useAdminMutation(studentApi.resendPassword, {
    success: adminMessages.passwordResent,
    failure: adminMessages.passwordResendFailed,
    serverWords: true,
    onDone: onClose,
    refresh: false,
  });
  return (
    <ConfirmModal
      opened={student !== null}
      title="Re-send initial password?"
      action="Re-send password"
      pending={resend.isPending}
      onConfirm={() => resend.mutate(student!._id)}
      onClose={onClose}
    >
      A new one-time password is mailed to <b>{student?.email}</b>. {student?.name}&apos;s current password
      and sessions stop working, and they choose their own password at the next sign-in.
    </ConfirmModal>
  );
}

/** /adminstudents: find, add and import students, enrol them, re-send passwords, see their access history. */
export default function StudentsPage() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [courseId, setCourseId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<'add' | 'import' | 'enrol' | null>(null);
  const [resending, setResending] = useState<AdminStudent | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const courses = useAdminCourses('list');
  const list = useStudents({ q, courseId: courseId ?? undefined, page, pageSize: STUDENT_PAGE_SIZE });

  useEffect(() => setPage(1), [q, courseId]);
  useEffect(() => {
    if (list.isError) toastOnce('error', LIST_FAILED);
  }, [list.isError]);

  const students = list.data?.students ?? [];
  const pageIds = students.map((s) => s._id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (ids: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  let body;
  if (list.isPending) body = <TableSkeleton rows={5} label="Loading students" />;
  else if (list.isError) body = <LoadError title={LIST_FAILED} onRetry={() => void list.refetch()} />;
  else if (list.data.total === 0)
    body =
      q || courseId ? (
        <Empty title="No students match." description="Try another search or course." />
      ) : (
        <Empty title="No students yet." description="Add students one by one or import a class list.">
          <Button leftSection={<IconFileImport size={16} />} onClick={() => setDialog('import')}>
            Import CSV
          </Button>
        </Empty>
      );
  else
    body = (
      <Paper withBorder radius="md">
        <DataTable
          minWidth={980}
          aria-busy={list.isFetching}
          columns={[
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all students on this page"
                checked={allOnPage}
                indeterminate={!allOnPage && pageIds.some((id) => selected.has(id))}
                onChange={(event) => toggle(pageIds, event.currentTarget.checked)}
              />
            </Table.Th>,
            'Roll No',
            'Name',
            'Email',
            'Username',
            'Courses',
            'Last sign-in',
            <Table.Th className={classes.actions}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>,
          ]}
        >
          {students.map((student) => (
            <Table.Tr
              key={student._id}
              bg={selected.has(student._id) ? 'var(--mantine-color-red-0)' : undefined}
            >
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${student.name} (${student.rollno})`}
                  checked={selected.has(student._id)}
                  onChange={(event) => toggle([student._id], event.currentTarget.checked)}
                />
              </Table.Td>
              <Table.Td ff="monospace" className={classes.nowrap}>
                {student.rollno}
              </Table.Td>
              <Table.Td>
                <AnalyticsLink subject="student" id={student._id} size="sm">
                  {student.name}
                </AnalyticsLink>
              </Table.Td>
              <Table.Td>{student.email}</Table.Td>
              <Table.Td>{student.username}</Table.Td>
              <Table.Td maw={280}>
                <CourseBadges courses={student.courses} />
              </Table.Td>
              <Table.Td className={classes.nowrap}>
                {student.lastSignInAt ? (
                  <Text size="sm">{formatDateTime(student.lastSignInAt)}</Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    Never
                  </Text>
                )}
                {student.firstlogin && (
                  <Text size="xs" c="orange.8">
                    Initial password
                  </Text>
                )}
              </Table.Td>
              <Table.Td className={classes.actions}>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={`Actions for ${student.name} (${student.rollno})`}
                    >
                      <IconDots size={18} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item
                      leftSection={<IconChartAreaLine size={16} />}
                      component={Link}
                      to={analyticsPath('student', student._id)}
                      replace
                    >
                      Learning analytics
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconHistory size={16} />}
                      onClick={() => setHistoryOf(student._id)}
                    >
                      Access history
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconMailForward size={16} />}
                      onClick={() => setResending(student)}
                    >
                      Re-send password
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </Paper>
    );

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / STUDENT_PAGE_SIZE));

  return (
    <>
      <PageHeader
        title="Students"
        description="Find, add and import students, enrol them in courses and see their access history."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconUserPlus size={16} />}
              onClick={() => setDialog('add')}
            >
              Add student
            </Button>
            <Button leftSection={<IconFileImport size={16} />} onClick={() => setDialog('import')}>
              Import CSV
            </Button>
          </>
        }
      />
      <Stack gap="sm">
        <Group gap="sm" align="flex-end">
          <SearchInput
            label="Search students"
            placeholder="Search roll no, name, e-mail or username"
            value={search}
            onChange={setSearch}
            style={{ flex: '1 1 260px' }}
          />
          <Select
            aria-label="Filter by course"
            placeholder="All courses"
            data={(courses.data ?? []).map((c) => ({ value: c._id, label: courseLabel(c) }))}
            value={courseId}
            onChange={setCourseId}
            clearable
            searchable
            style={{ flex: '1 1 220px' }}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <Group justify="space-between" gap="xs" mih={36}>
          <Text size="sm" c="dimmed">
            {list.data ? `${total} student${total === 1 ? '' : 's'}` : ''}
            {selected.size > 0 && ` · ${selected.size} selected`}
          </Text>
          {selected.size > 0 && (
            <Group gap="xs">
              <Button size="xs" variant="subtle" color="gray" onClick={() => setSelected(new Set())}>
                Clear selection
              </Button>
              <Button size="xs" leftSection={<IconSchool size={14} />} onClick={() => setDialog('enrol')}>
                Enrol {selected.size} in a course
              </Button>
            </Group>
          )}
        </Group>
        {body}
        {pages > 1 && (
          <Group justify="center">
            <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="Pages" />
          </Group>
        )}
      </Stack>
      <AddStudentModal opened={dialog === 'add'} onClose={() => setDialog(null)} />
      <ImportStudentsModal opened={dialog === 'import'} onClose={() => setDialog(null)} />
      <EnrolSelectedModal
        studentIds={[...selected]}
        opened={dialog === 'enrol'}
        onDone={(enrolled) => {
          setDialog(null);
          if (enrolled) setSelected(new Set());
        }}
      />
      <ResendPasswordModal student={resending} onClose={() => setResending(null)} />
      <HistoryDrawer studentId={historyOf} onClose={() => setHistoryOf(null)} />
    </>
  );
}
