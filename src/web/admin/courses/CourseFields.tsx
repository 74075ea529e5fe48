import '@mantine/dates/styles.css';
import { NumberInput, SimpleGrid, Stack } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import { IconCalendar } from '@tabler/icons-react';
import { CourseCreateBody, type AdminCourse } from '../../../contract/courses';
import { ThumbnailInput } from '../ui/ThumbnailInput';
import { DescriptionInput } from '../ui/DescriptionInput';
import { FormTextInput } from '../ui/FormTextInput';

export interface CourseFormValues {
  batch: number | string;
  coursecode: string;
  name: string;
  description: string;
  /** A new image as a data URL; null keeps the current one. */
  thumbnail: string | null;
  /** YYYY-MM-DD */
  startdate: string | null;
  enddate: string | null;
}

export const emptyCourse: CourseFormValues = {
  batch: '',
  coursecode: '',
  name: '',
  description: '',
  thumbnail: null,
  startdate: null,
  enddate: null,
};

export function courseValues(course: AdminCourse): CourseFormValues {
  return {
    batch: course.batch,
    coursecode: course.coursecode,
    name: course.name,
    description: course.description,
    thumbnail: null,
    startdate: course.startdate,
    enddate: course.enddate,
  };
}

/** A course form validated by the server's own schema, so its messages are section 5's. */
export function useCourseForm(initialValues: CourseFormValues = emptyCourse) {
  return useForm<CourseFormValues>({
    initialValues,
    validate: schemaResolver(CourseCreateBody, { sync: true }),
    validateInputOnBlur: true,
  });
}

/** The create body from valid form values (the schema has checked them). */
export function toCreateBody(values: CourseFormValues): CourseCreateBody {
  return CourseCreateBody.parse(values);
}

const dateProps = {
  valueFormat: 'DD/MM/YYYY',
  placeholder: 'dd/mm/yyyy',
  clearable: true,
  leftSection: <IconCalendar size={16} aria-hidden="true" />,
  popoverProps: { withinPortal: true },
  ariaLabels: {
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    previousYear: 'Previous year',
    nextYear: 'Next year',
    previousDecade: 'Previous decade',
    nextDecade: 'Next decade',
    monthLevelControl: 'Choose a month',
    yearLevelControl: 'Choose a year',
  },
} as const;

/** Batch, course code, name, description, thumbnail, start and end date (SPEC.md section 2). */
export function CourseFields({
  form,
  currentThumbnail,
}: {
  form: UseFormReturnType<CourseFormValues>;
  currentThumbnail?: string | null;
}) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <NumberInput
          label="Batch"
          placeholder="e.g. 12"
          withAsterisk
          min={1}
          allowDecimal={false}
          allowNegative={false}
          key={form.key('batch')}
          {...form.getInputProps('batch')}
        />
        <FormTextInput
          form={form}
          field="coursecode"
          label="Course code"
          placeholder="e.g. FSWD"
          withAsterisk
        />
      </SimpleGrid>
      <FormTextInput form={form} field="name" label="Course name" withAsterisk />
      <DescriptionInput key={form.key('description')} {...form.getInputProps('description')} />
      <ThumbnailInput
        value={form.getValues().thumbnail}
        onChange={(value) => form.setFieldValue('thumbnail', value)}
        current={currentThumbnail}
        error={form.errors.thumbnail}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {(['startdate', 'enddate'] as const).map((field) => (
          <DatePickerInput
            label={field === 'startdate' ? 'Start date' : 'End date'}
            withAsterisk
            {...dateProps}
            key={form.key(field)}
            {...form.getInputProps(field)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
