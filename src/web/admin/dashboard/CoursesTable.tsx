import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminCourse } from '../../../contract/courses';
import { formatDMY } from '../ui/format';
import { Thumb } from '../ui/Thumb';
import { DataTable } from '../ui/DataTable';

export const NO_DESCRIPTION = 'No description available';

/** The Courses Overview table (SPEC.md section 2); a course's name opens its page. */
export function CoursesTable({ courses }: { courses: AdminCourse[] }) {
  return (
    <DataTable
      minWidth={960}
      striped
      verticalSpacing="sm"
      withTableBorder
      columns={[
        'Thumbnail',
        'Batch',
        'Course Code',
        'Name',
        'Description',
        'Start Date',
        'End Date',
        <Table.Th ta="right">Total Videos</Table.Th>,
        <Table.Th ta="right">Total Students</Table.Th>,
      ]}
    >
      {courses.map((course) => (
        <Table.Tr key={course._id}>
          <CourseCells course={course} thumbWidth={88} descriptionWidth={320} />
          <Table.Td ta="right">{course.totalvideos}</Table.Td>
          <Table.Td ta="right">{course.totalstudents}</Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}

/**
 * A course's Thumbnail, Batch, Code, Name (a link to its page), Description and dates cells, as the
 * overview and the edit list show them.
 */
export function CourseCells({
  course,
  thumbWidth,
  descriptionWidth,
}: {
  course: AdminCourse;
  thumbWidth: number;
  descriptionWidth: number;
}) {
  return (
    <>
      <Table.Td>
        <Thumb src={course.thumbnail} name={course.name} width={thumbWidth} />
      </Table.Td>
      <Table.Td>{course.batch}</Table.Td>
      <Table.Td ff="monospace">{course.coursecode}</Table.Td>
      <Table.Td>
        <Anchor component={Link} to={`/admin/course/${course._id}`} replace fw={600} size="sm">
          {course.name}
        </Anchor>
      </Table.Td>
      <Table.Td maw={descriptionWidth}>
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
    </>
  );
}
