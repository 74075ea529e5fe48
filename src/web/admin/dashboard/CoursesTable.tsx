import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminCourse } from '../../../contract/courses';
import { formatDMY } from '../ui/format';
import { Thumb } from '../ui/Thumb';

export const NO_DESCRIPTION = 'No description available';

/** The Courses Overview table (SPEC.md section 2); a course's name opens its page. */
export function CoursesTable({ courses }: { courses: AdminCourse[] }) {
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table striped highlightOnHover verticalSpacing="sm" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Thumbnail</Table.Th>
            <Table.Th>Batch</Table.Th>
            <Table.Th>Course Code</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Start Date</Table.Th>
            <Table.Th>End Date</Table.Th>
            <Table.Th ta="right">Total Videos</Table.Th>
            <Table.Th ta="right">Total Students</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {courses.map((course) => (
            <Table.Tr key={course._id}>
              <Table.Td>
                <Thumb src={course.thumbnail} name={course.name} width={88} />
              </Table.Td>
              <Table.Td>{course.batch}</Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {course.coursecode}
                </Text>
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/admin/course/${course._id}`} replace fw={600} size="sm">
                  {course.name}
                </Anchor>
              </Table.Td>
              <Table.Td maw={320}>
                <Text
                  size="sm"
                  c={course.description ? undefined : 'dimmed'}
                  lineClamp={2}
                  title={course.description}
                >
                  {course.description || NO_DESCRIPTION}
                </Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDMY(course.startdate)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDMY(course.enddate)}</Table.Td>
              <Table.Td ta="right">{course.totalvideos}</Table.Td>
              <Table.Td ta="right">{course.totalstudents}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
