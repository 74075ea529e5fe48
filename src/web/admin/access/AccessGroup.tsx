import { Badge, Button, Group, Table, Text, type ButtonProps } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { courseAccess, enrollmentOf, statusLabel } from '../../../contract/access-policy';
import type { CourseAccessListEntry, CourseAccessStudent } from '../../../contract/courses';
import { useSchoolTimeZone } from '../../api/session';
import classes from '../ui/tables.module.css';
import { AccessGroupFrame, AccessTable, matchesFilter, StudentCells, studentCount } from './AccessGroupFrame';
import { ExpiryCell } from './ExpiryCell';

export const groupTitle = (entry: Pick<CourseAccessListEntry, 'courseName' | 'batch'>) =>
  `${entry.courseName} (Batch ${entry.batch})`;

export type Pending = { student: CourseAccessStudent; entry: CourseAccessListEntry };
/** The course and student a pending grant or revoke is for, as the access API names them. */
export const accessIds = ({ entry, student }: Pending) => ({
  courseId: entry.courseId,
  studentId: student.studentid,
});

export function AccessGroup({
  entry,
  filter,
  onGrant,
  onRevoke,
  onAdd,
}: {
  entry: CourseAccessListEntry;
  filter: string;
  onGrant(p: Pending, action: 'Grant' | 'Extend'): void;
  onRevoke(p: Pending): void;
  onAdd(entry: CourseAccessListEntry): void;
}) {
  const title = groupTitle(entry);
  const timeZone = useSchoolTimeZone();
  const rows = filter ? entry.students.filter((s) => matchesFilter(s, filter)) : entry.students;
  if (filter && rows.length === 0) return null;
  return (
    <AccessGroupFrame
      title={title}
      count={studentCount(entry.students.length)}
      action={
        <Button
          size="xs"
          variant="light"
          leftSection={<IconUserPlus size={14} aria-hidden="true" />}
          onClick={() => onAdd(entry)}
          aria-label={`Add students to ${title}`}
        >
          Add students
        </Button>
      }
    >
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No students enrolled yet.
        </Text>
      ) : (
        <AccessTable>
          {rows.map((student) => {
            const who = `${student.name} (${student.rollno})`;
            const verdict = courseAccess(enrollmentOf(student), Date.now(), timeZone);
            const revoked = verdict.state === 'revoked';
            return (
              <Table.Tr key={student.studentid}>
                <StudentCells student={student} />
                <Table.Td>
                  <ExpiryCell iso={student.accessexpiration} verdict={verdict} />
                </Table.Td>
                <Table.Td>
                  <Badge
                    color={revoked ? 'red' : 'teal'}
                    variant="light"
                    title={revoked ? (student.accessrevokedreason ?? undefined) : undefined}
                  >
                    {statusLabel(verdict)}
                  </Badge>
                  {revoked && student.accessrevokedreason && (
                    <Text size="xs" c="dimmed" lineClamp={2} maw={200}>
                      {student.accessrevokedreason}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td className={classes.actions}>
                  <AccessActions
                    who={who}
                    revoked={revoked}
                    onGrant={(action) => onGrant({ student, entry }, action)}
                    onRevoke={() => onRevoke({ student, entry })}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </AccessTable>
      )}
    </AccessGroupFrame>
  );
}

/** A student's row buttons: Grant where the access was revoked, otherwise Extend and Revoke. */
function AccessActions({
  who,
  revoked,
  onGrant,
  onRevoke,
}: {
  who: string;
  revoked: boolean;
  onGrant(action: 'Grant' | 'Extend'): void;
  onRevoke(): void;
}) {
  /** One small button; `look` is its variant and colour. */
  const button = (text: string, label: string, run: () => void, look: ButtonProps) => (
    <Button key={text} size="xs" {...look} onClick={run} aria-label={label}>
      {text}
    </Button>
  );
  return (
    <Group gap={6} wrap="nowrap">
      {revoked
        ? button('Grant', `Grant access to ${who}`, () => onGrant('Grant'), { color: 'teal' })
        : [
            button('Extend', `Extend access of ${who}`, () => onGrant('Extend'), { variant: 'light' }),
            button('Revoke', `Revoke access of ${who}`, onRevoke, { variant: 'light', color: 'red' }),
          ]}
    </Group>
  );
}
