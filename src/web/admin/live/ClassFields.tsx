import { NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import {
  LIVE_DESCRIPTION_MAX,
  LIVE_MINUTES_MAX,
  LIVE_MINUTES_MIN,
  LIVE_TITLE_MAX,
} from '../../../contract/live';
import { courseLabel } from '../ui/format';
import type { ClassFormValues } from './class-form';

/** The fields of a class: the course (when scheduling), title, description, start and length. */
export function ClassFields({
  values,
  onChange,
  courses,
  lockTime,
  idPrefix,
}: {
  values: ClassFormValues;
  onChange(values: ClassFormValues): void;
  /** The courses to choose from; absent when the course cannot change (editing). */
  courses?: { _id: string; name: string; batch: number }[];
  /** A live class keeps its start and length. */
  lockTime?: boolean;
  idPrefix: string;
}) {
  const set = <K extends keyof ClassFormValues>(key: K, value: ClassFormValues[K]) =>
    onChange({ ...values, [key]: value });
  return (
    <Stack gap="sm">
      {courses && (
        <Select
          id={`${idPrefix}-course`}
          label="Course"
          placeholder="Select Course"
          withAsterisk
          searchable
          data={courses.map((c) => ({ value: c._id, label: courseLabel(c) }))}
          value={values.courseId}
          onChange={(value) => set('courseId', value)}
          nothingFoundMessage="No such course"
        />
      )}
      <TextInput
        id={`${idPrefix}-title`}
        label="Title"
        withAsterisk
        maxLength={LIVE_TITLE_MAX}
        value={values.title}
        onChange={(e) => set('title', e.currentTarget.value)}
        autoComplete="off"
      />
      <Textarea
        id={`${idPrefix}-description`}
        label="Description"
        autosize
        minRows={2}
        maxRows={6}
        maxLength={LIVE_DESCRIPTION_MAX}
        value={values.description}
        onChange={(e) => set('description', e.currentTarget.value)}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          id={`${idPrefix}-start`}
          label="Starts at"
          description="In your time zone"
          type="datetime-local"
          withAsterisk
          disabled={lockTime}
          value={values.startsLocal}
          onChange={(e) => set('startsLocal', e.currentTarget.value)}
        />
        <NumberInput
          id={`${idPrefix}-minutes`}
          label="Length (minutes)"
          description={`${LIVE_MINUTES_MIN} to ${LIVE_MINUTES_MAX}`}
          withAsterisk
          disabled={lockTime}
          min={LIVE_MINUTES_MIN}
          max={LIVE_MINUTES_MAX}
          step={5}
          allowDecimal={false}
          value={values.minutes}
          onChange={(value) => set('minutes', value)}
        />
      </SimpleGrid>
    </Stack>
  );
}
