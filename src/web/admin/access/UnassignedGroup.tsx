import { Anchor, Badge, Button, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminStudent } from '../../../contract/admin-students';
import { studentsLink } from '../admin-links';
import classes from '../ui/tables.module.css';
import { AccessGroupFrame, AccessTable, matchesFilter, StudentCells, studentCount } from './AccessGroupFrame';

export const UNASSIGNED = 'Unassigned';

/**
 * The /editcourse group of students enrolled in no course (SPEC.md section 2), each with a Grant
 * button that enrols them in a course. Hidden when every student has a course.
 */
export function UnassignedGroup({
  students,
  total,
  filter,
  onGrant,
}: {
  students: AdminStudent[];
  /** All unassigned students; more than `students` when the list was cut at a page. */
  total: number;
  filter: string;
  onGrant(student: AdminStudent): void;
}) {
  const rows = filter ? students.filter((s) => matchesFilter(s, filter)) : students;
  if (rows.length === 0) return null;
  return (
    <AccessGroupFrame title={UNASSIGNED} count={`${studentCount(total)} enrolled in no course`}>
      <AccessTable>
        {rows.map((student) => (
          <Table.Tr key={student._id}>
            <StudentCells student={student} />
            <Table.Td>
              <Text size="sm" c="dimmed">
                —
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge color="gray" variant="light">
                No course
              </Badge>
            </Table.Td>
            <Table.Td className={classes.actions}>
              <Button
                size="xs"
                color="teal"
                onClick={() => onGrant(student)}
                aria-label={`Grant a course to ${student.name} (${student.rollno})`}
              >
                Grant
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </AccessTable>
      {total > students.length && (
        <Text size="sm" c="dimmed" mt="xs">
          Showing {students.length} of {total}:{' '}
          <Anchor component={Link} to={studentsLink.to} replace>
            {studentsLink.label}
          </Anchor>{' '}
          lists them all.
        </Text>
      )}
    </AccessGroupFrame>
  );
}
