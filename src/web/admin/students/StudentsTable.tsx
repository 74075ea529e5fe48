import { ActionIcon, Badge, Checkbox, Group, Menu, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconChartAreaLine, IconDots, IconHistory, IconMailForward } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AdminStudent, StudentCourseAccess } from '../../../contract/admin-students';
import { AnalyticsLink, analyticsPath } from '../analytics/AnalyticsLink';
import { DataTable } from '../ui/DataTable';
import { formatDateTime } from '../ui/format';
import classes from '../ui/tables.module.css';
import type { StudentSelection } from './use-student-selection';

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

export interface StudentsTableProps {
  students: AdminStudent[];
  selection: StudentSelection;
  /** A newer page is on its way. */
  busy: boolean;
  onHistory(studentId: string): void;
  onResend(student: AdminStudent): void;
}

/** One page of students: a checkbox each, their courses, last sign-in and a menu of actions. */
export function StudentsTable({ students, selection, busy, onHistory, onResend }: StudentsTableProps) {
  const pageIds = students.map((s) => s._id);
  const allOnPage = selection.allOf(pageIds);
  return (
    <Paper withBorder radius="md">
      <DataTable
        minWidth={980}
        aria-busy={busy}
        columns={[
          <Table.Th w={40}>
            <Checkbox
              aria-label="Select all students on this page"
              checked={allOnPage}
              indeterminate={!allOnPage && selection.someOf(pageIds)}
              onChange={(event) => selection.toggle(pageIds, event.currentTarget.checked)}
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
            bg={selection.selected.has(student._id) ? 'var(--mantine-color-red-0)' : undefined}
          >
            <Table.Td>
              <Checkbox
                aria-label={`Select ${student.name} (${student.rollno})`}
                checked={selection.selected.has(student._id)}
                onChange={(event) => selection.toggle([student._id], event.currentTarget.checked)}
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
                  <Menu.Item leftSection={<IconHistory size={16} />} onClick={() => onHistory(student._id)}>
                    Access history
                  </Menu.Item>
                  <Menu.Item leftSection={<IconMailForward size={16} />} onClick={() => onResend(student)}>
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
}
