import { Button, Table } from '@mantine/core';
import { IconSquarePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminCourse } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { useAdminCourses } from '../../api/admin';

import { Empty } from '../ui/Empty';

import { LoadedList } from '../ui/LoadedList';
import { PageHeader } from '../ui/PageHeader';

import classes from '../ui/tables.module.css';
import { EditCourseModal } from './EditCourseModal';
import { CourseCells } from '../dashboard/CoursesTable';
import { DataTable, EditButton } from '../ui/DataTable';

/** /editcoursedetails: every course in a table, each with an Edit modal (SPEC.md section 2). */
export default function EditCourseDetailsPage() {
  const courses = useAdminCourses('list');
  const [editing, setEditing] = useState<AdminCourse | null>(null);

  const table = (list: AdminCourse[]) => (
    <DataTable
      minWidth={900}
      verticalSpacing="sm"
      withTableBorder
      columns={['Thumbnail', 'Batch', 'Code', 'Name', 'Description', 'Start Date', 'End Date', 'Actions']}
    >
      {list.map((course) => (
        <Table.Tr key={course._id}>
          <CourseCells course={course} thumbWidth={80} descriptionWidth={300} />
          <Table.Td className={classes.actions}>
            <EditButton
              label={`Edit ${course.name} (Batch ${course.batch})`}
              onClick={() => setEditing(course)}
            />
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );

  return (
    <>
      <PageHeader
        title="Edit Course Details"
        description="Batch, code, name, description, thumbnail and dates of each course."
      />
      <LoadedList
        query={courses}
        failure={adminToasts.noCourses}
        loading="Loading courses"
        empty={
          <Empty title="No courses available.">
            <Button component={Link} to="/admincourse" replace leftSection={<IconSquarePlus size={16} />}>
              Create Course
            </Button>
          </Empty>
        }
      >
        {table}
      </LoadedList>
      <EditCourseModal item={editing} onClose={() => setEditing(null)} />
    </>
  );
}
