import { Anchor, MultiSelect, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { adminToasts } from '../../../contract/messages';
import { useAdminCourses, useCourseStudents } from '../../api/admin';
import { useAdminCheck } from '../../api/session';
import { toastOnce } from '../../ui/toast';
import { courseLabel } from '../ui/format';
import { SELECT_COURSE_FIRST, type UploadFormValues } from './upload-form';

/** The course of a new video and which of its students may watch it (all of them in one click). */
export function CourseStudentsFields({ form }: { form: UseFormReturnType<UploadFormValues> }) {
  const courses = useAdminCourses('video');
  const { course } = form.getValues();
  // Granting a video to students is the admins' (an instructor's upload grants nobody).
  const grants = useAdminCheck().data?.role !== 'instructor';
  const students = useCourseStudents(grants ? course : null);

  useEffect(() => {
    if (courses.isError) toastOnce('error', adminToasts.noCourses);
  }, [courses.isError]);
  useEffect(() => {
    if (students.isError) toastOnce('error', adminToasts.studentsFailed);
    else if (students.data?.length === 0) toastOnce('info', adminToasts.noStudentsForCourse, 3_000);
  }, [students.isError, students.data]);

  const studentOptions = (students.data ?? []).map((s) => ({
    value: s.rollno,
    label: `${s.rollno} · ${s.name}`,
  }));
  const allPicked = studentOptions.length > 0 && form.getValues().rollnos.length === studentOptions.length;

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Select
        label="Course"
        placeholder="Select Course"
        data={(courses.data ?? []).map((c) => ({ value: c._id, label: courseLabel(c) }))}
        searchable
        clearable
        nothingFoundMessage={courses.isPending ? 'Loading courses…' : 'No courses found.'}
        value={course}
        onChange={(value) => {
          form.setFieldValue('course', value);
          form.setFieldValue('rollnos', []);
        }}
        comboboxProps={{ withinPortal: true }}
      />
      {grants && (
        <Stack gap={4}>
          <MultiSelect
            label="Students with access"
            placeholder={course ? 'Choose students' : undefined}
            data={studentOptions}
            disabled={!course || students.isPending}
            searchable
            clearable
            hidePickedOptions
            maxDropdownHeight={240}
            nothingFoundMessage="No students found for this course"
            key={form.key('rollnos')}
            {...form.getInputProps('rollnos')}
            comboboxProps={{ withinPortal: true }}
          />
          {!course ? (
            <Text size="xs" c="dimmed" style={{ display: 'flex', gap: 4, alignItems: 'center' }}>
              <IconInfoCircle size={14} aria-hidden="true" /> {SELECT_COURSE_FIRST}
            </Text>
          ) : students.data?.length === 0 ? (
            <Text size="xs" c="dimmed">
              {adminToasts.noStudentsForCourse}
            </Text>
          ) : (
            studentOptions.length > 0 && (
              <Anchor
                component="button"
                type="button"
                size="xs"
                ta="left"
                onClick={() =>
                  form.setFieldValue('rollnos', allPicked ? [] : studentOptions.map((o) => o.value))
                }
              >
                {allPicked ? 'Clear all' : `Select all ${studentOptions.length} students`}
              </Anchor>
            )
          )}
        </Stack>
      )}
    </SimpleGrid>
  );
}
