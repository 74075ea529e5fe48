import { Button, Group, Pagination, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileImport, IconSchool, IconUserPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { AdminStudent } from '../../../contract/admin-students';
import { STUDENT_PAGE_SIZE } from '../../../contract/admin-students';
import { useAdminCourses } from '../../api/admin';
import { useStudents } from '../../api/admin-students';
import { toastOnce } from '../../ui/toast';
import { Empty } from '../ui/Empty';
import { courseLabel } from '../ui/format';
import { LoadError } from '../ui/LoadError';
import { PageHeader } from '../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { TableSkeleton } from '../ui/TableSkeleton';
import { AddStudentModal } from './AddStudentModal';
import { EnrolSelectedModal } from './EnrolSelectedModal';
import { HistoryDrawer } from './HistoryDrawer';
import { ImportStudentsModal } from './ImportStudentsModal';
import { ResendPasswordModal } from './ResendPasswordModal';
import { StudentsTable } from './StudentsTable';
import { useStudentSelection } from './use-student-selection';
import { plural } from '../../../contract/plural';

const LIST_FAILED = 'Failed to load students.';

/** /adminstudents: find, add and import students, enrol them, re-send passwords, see their access history. */
export default function StudentsPage() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [courseId, setCourseId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const selection = useStudentSelection();
  const { selected } = selection;
  const [dialog, setDialog] = useState<'add' | 'import' | 'enrol' | null>(null);
  const [resending, setResending] = useState<AdminStudent | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const courses = useAdminCourses('list');
  const list = useStudents({ q, courseId: courseId ?? undefined, page, pageSize: STUDENT_PAGE_SIZE });

  useEffect(() => setPage(1), [q, courseId]);
  useEffect(() => {
    if (list.isError) toastOnce('error', LIST_FAILED);
  }, [list.isError]);

  const students = list.data?.students ?? [];

  let body;
  if (list.isPending) body = <TableSkeleton rows={5} label="Loading students" />;
  else if (list.isError) body = <LoadError title={LIST_FAILED} onRetry={() => void list.refetch()} />;
  else if (list.data.total === 0)
    body =
      q || courseId ? (
        <Empty title="No students match." description="Try another search or course." />
      ) : (
        <Empty title="No students yet." description="Add students one by one or import a class list.">
          <Button leftSection={<IconFileImport size={16} />} onClick={() => setDialog('import')}>
            Import CSV
          </Button>
        </Empty>
      );
  else
    body = (
      <StudentsTable
        students={students}
        selection={selection}
        busy={list.isFetching}
        onHistory={setHistoryOf}
        onResend={setResending}
      />
    );

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / STUDENT_PAGE_SIZE));

  return (
    <>
      <PageHeader
        title="Students"
        description="Find, add and import students, enrol them in courses and see their access history."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconUserPlus size={16} />}
              onClick={() => setDialog('add')}
            >
              Add student
            </Button>
            <Button leftSection={<IconFileImport size={16} />} onClick={() => setDialog('import')}>
              Import CSV
            </Button>
          </>
        }
      />
      <Stack gap="sm">
        <Group gap="sm" align="flex-end">
          <SearchInput
            label="Search students"
            placeholder="Search roll no, name, e-mail or username"
            value={search}
            onChange={setSearch}
            style={{ flex: '1 1 260px' }}
          />
          <Select
            aria-label="Filter by course"
            placeholder="All courses"
            data={(courses.data ?? []).map((c) => ({ value: c._id, label: courseLabel(c) }))}
            value={courseId}
            onChange={setCourseId}
            clearable
            searchable
            style={{ flex: '1 1 220px' }}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <Group justify="space-between" gap="xs" mih={36}>
          <Text size="sm" c="dimmed">
            {list.data ? plural(total, 'student') : ''}
            {selected.size > 0 && ` · ${selected.size} selected`}
          </Text>
          {selected.size > 0 && (
            <Group gap="xs">
              <Button size="xs" variant="subtle" color="gray" onClick={selection.clear}>
                Clear selection
              </Button>
              <Button size="xs" leftSection={<IconSchool size={14} />} onClick={() => setDialog('enrol')}>
                Enrol {selected.size} in a course
              </Button>
            </Group>
          )}
        </Group>
        {body}
        {pages > 1 && (
          <Group justify="center">
            <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="Pages" />
          </Group>
        )}
      </Stack>
      <AddStudentModal opened={dialog === 'add'} onClose={() => setDialog(null)} />
      <ImportStudentsModal opened={dialog === 'import'} onClose={() => setDialog(null)} />
      <EnrolSelectedModal
        studentIds={[...selected]}
        opened={dialog === 'enrol'}
        onDone={(enrolled) => {
          setDialog(null);
          if (enrolled) selection.clear();
        }}
      />
      <ResendPasswordModal student={resending} onClose={() => setResending(null)} />
      <HistoryDrawer studentId={historyOf} onClose={() => setHistoryOf(null)} />
    </>
  );
}
