import { MultiSelect, type ComboboxItem } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useRef, useState } from 'react';
import type { AdminStudent } from '../../../contract/admin-students';
import { useStudents } from '../../api/admin-students';

export const studentLabel = (s: Pick<AdminStudent, 'rollno' | 'name'>) => `${s.rollno} · ${s.name}`;

/**
 * Picks students from the whole school by roll number, name, e-mail or username, searched on the
 * server (a school has thousands); those already in `courseId` are marked.
 */
export function StudentPicker({
  value,
  onChange,
  courseId,
  error,
  label = 'Students',
}: {
  value: string[];
  onChange(ids: string[]): void;
  courseId?: string;
  error?: React.ReactNode;
  label?: string;
}) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const students = useStudents({ q, pageSize: 50 });
  // Labels of picked students stay known when a later search no longer lists them.
  const known = useRef(new Map<string, string>());

  const options: ComboboxItem[] = (students.data?.students ?? []).map((s) => {
    const enrolled = courseId && s.courses.some((c) => c.courseId === courseId);
    const optionLabel = `${studentLabel(s)}${enrolled ? ' (enrolled: extends)' : ''}`;
    known.current.set(s._id, studentLabel(s));
    return { value: s._id, label: optionLabel };
  });
  const listed = new Set(options.map((o) => o.value));
  const data = [
    ...value.filter((id) => !listed.has(id)).map((id) => ({ value: id, label: known.current.get(id) ?? id })),
    ...options,
  ];

  return (
    <MultiSelect
      label={label}
      placeholder={value.length ? undefined : 'Search by roll no, name or e-mail'}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      data={data}
      value={value}
      onChange={onChange}
      nothingFoundMessage={students.isFetching ? 'Searching…' : 'No students match'}
      maxDropdownHeight={260}
      hidePickedOptions
      clearable
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
