import { Anchor, Button, Table, Text } from '@mantine/core';
import { IconPencil, IconSquarePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminCourse } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { useAdminCourses } from '../../api/admin';
import { NO_DESCRIPTION } from '../dashboard/CoursesTable';
import { Empty } from '../ui/Empty';
import { formatDMY } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import { Thumb } from '../ui/Thumb';
import classes from '../ui/tables.module.css';
import { EditCourseModal } from './EditCourseModal';

/** /editcoursedetails: every course in a table, each with an Edit modal (SPEC.md section 2). */
export default function EditCourseDetailsPage() {
  const courses = useAdminCourses('list');
  const [editing, setEditing] = useState<AdminCourse | null>(null);

  const table = (list: AdminCourse[]) =>
    list.length === 0 ? (
      <Empty title="No courses available.">
        <Button component={Link} to="/admincourse" replace leftSection={<IconSquarePlus size={16} />}>
          Create Course
        </Button>
      </Empty>
    ) : (
      <Table.ScrollContainer minWidth={900}>
        <Table highlightOnHover verticalSpacing="sm" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Thumbnail</Table.Th>
              <Table.Th>Batch</Table.Th>
              <Table.Th>Code</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Start Date</Table.Th>
              <Table.Th>End Date</Table.Th>
              <Table.Th className={classes.actions}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((course) => (
              <Table.Tr key={course._id}>
                <Table.Td>
                  <Thumb src={course.thumbnail} name={course.name} width={80} />
                </Table.Td>
                <Table.Td>{course.batch}</Table.Td>
                <Table.Td ff="monospace">{course.coursecode}</Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/admin/course/${course._id}`} replace size="sm" fw={600}>
                    {course.name}
                  </Anchor>
                </Table.Td>
                <Table.Td maw={300}>
                  <Text size="sm" lineClamp={2} title={course.description}>
                    {course.description || NO_DESCRIPTION}
                  </Text>
                </Table.Td>
                <Table.Td className={classes.nowrap}>{formatDMY(course.startdate)}</Table.Td>
                <Table.Td className={classes.nowrap}>{formatDMY(course.enddate)}</Table.Td>
                <Table.Td className={classes.actions}>
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconPencil size={14} aria-hidden="true" />}
                    onClick={() => setEditing(course)}
                    aria-label={`Edit ${course.name} (Batch ${course.batch})`}
                  >
                    Edit
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <>
      <PageHeader
        title="Edit Course Details"
        description="Batch, code, name, description, thumbnail and dates of each course."
      />
      <Loaded
        query={courses}
        failure={adminToasts.noCourses}
        loading={<TableSkeleton rows={4} label="Loading courses" />}
      >
        {table}
      </Loaded>
      <EditCourseModal course={editing} onClose={() => setEditing(null)} />
    </>
  );
}
