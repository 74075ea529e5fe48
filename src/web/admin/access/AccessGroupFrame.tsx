import { Group, Paper, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { DataTable } from '../ui/DataTable';
import classes from '../ui/tables.module.css';
import { plural } from '../../../contract/plural';

/** One group of /editcourse: its title, how many students it holds, an action, then its table. */
export function AccessGroupFrame({
  title,
  count,
  action,
  children,
}: {
  title: string;
  count: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" gap="xs">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {count}
          </Text>
        </div>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

/** The columns of SPEC.md section 2, "Course Access Management", around the given rows. */
export function AccessTable({ children }: { children: ReactNode }) {
  return (
    <DataTable minWidth={760} columns={['Roll No', 'Name', 'Email', 'Expiration', 'Status', 'Actions']}>
      {children}
    </DataTable>
  );
}

type Who = { rollno: string; name: string; email: string };

/** A row's first three cells: Roll No, Name, Email. */
export function StudentCells({ student }: { student: Who }) {
  return (
    <>
      <Table.Td ff="monospace" className={classes.nowrap}>
        {student.rollno}
      </Table.Td>
      <Table.Td>{student.name}</Table.Td>
      <Table.Td>{student.email}</Table.Td>
    </>
  );
}

/** Whether a student's roll number, name or e-mail contains the (lower-case) filter text. */
export function matchesFilter(student: Who, q: string) {
  return [student.rollno, student.name, student.email].some((v) => v.toLowerCase().includes(q));
}

export const studentCount = (n: number) => plural(n, 'student');
