import { Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CourseAccessListEntry, CourseAccessStudent } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { adminApi, adminKeys, useAccessList } from '../../api/admin';
import { messageOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { Empty } from '../ui/Empty';
import { daysUntil, formatDMY } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import classes from '../ui/tables.module.css';
import { AddStudentsModal, type EnrolTarget } from './AddStudentsModal';
import { DaysModal, type DaysRequest } from './DaysModal';
import { RevokeModal, type RevokeRequest } from './RevokeModal';

export const groupTitle = (entry: Pick<CourseAccessListEntry, 'courseName' | 'batch'>) =>
  `${entry.courseName} (Batch ${entry.batch})`;

/** The expiry and how far it is: "in 12 days", "today", or "expired" in red. */
export function ExpiryCell({ iso }: { iso: string }) {
  const days = daysUntil(iso);
  return (
    <Stack gap={0}>
      <Text size="sm" className={classes.nowrap}>
        {formatDMY(iso)}
      </Text>
      <Text size="xs" c={days < 0 ? 'red.7' : days <= 7 ? 'orange.8' : 'dimmed'}>
        {days < 0 ? 'expired' : days === 0 ? 'today' : `in ${days} day${days === 1 ? '' : 's'}`}
      </Text>
    </Stack>
  );
}

type Pending = { student: CourseAccessStudent; entry: CourseAccessListEntry };

function matches(student: CourseAccessStudent, q: string) {
  return [student.rollno, student.name, student.email].some((v) => v.toLowerCase().includes(q));
}

function AccessGroup({
  entry,
  filter,
  onGrant,
  onRevoke,
  onAdd,
}: {
  entry: CourseAccessListEntry;
  filter: string;
  onGrant(p: Pending, action: 'Grant' | 'Extend'): void;
  onRevoke(p: Pending): void;
  onAdd(entry: CourseAccessListEntry): void;
}) {
  const title = groupTitle(entry);
  const rows = filter ? entry.students.filter((s) => matches(s, filter)) : entry.students;
  if (filter && rows.length === 0) return null;
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" gap="xs">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {entry.students.length} student{entry.students.length === 1 ? '' : 's'}
          </Text>
        </div>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconUserPlus size={14} aria-hidden="true" />}
          onClick={() => onAdd(entry)}
          aria-label={`Add students to ${title}`}
        >
          Add students
        </Button>
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No students enrolled yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Roll No</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Expiration</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th className={classes.actions}>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((student) => {
                const who = `${student.name} (${student.rollno})`;
                return (
                  <Table.Tr key={student.studentid}>
                    <Table.Td ff="monospace" className={classes.nowrap}>
                      {student.rollno}
                    </Table.Td>
                    <Table.Td>{student.name}</Table.Td>
                    <Table.Td>{student.email}</Table.Td>
                    <Table.Td>
                      <ExpiryCell iso={student.accessexpiration} />
                    </Table.Td>
                    <Table.Td>
                      {student.accessrevoked ? (
                        <Badge color="red" variant="light" title={student.accessrevokedreason ?? undefined}>
                          Revoked
                        </Badge>
                      ) : (
                        <Badge color="teal" variant="light">
                          Active
                        </Badge>
                      )}
                      {student.accessrevoked && student.accessrevokedreason && (
                        <Text size="xs" c="dimmed" lineClamp={2} maw={200}>
                          {student.accessrevokedreason}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td className={classes.actions}>
                      <Group gap={6} wrap="nowrap">
                        {student.accessrevoked ? (
                          <Button
                            size="xs"
                            color="teal"
                            onClick={() => onGrant({ student, entry }, 'Grant')}
                            aria-label={`Grant access to ${who}`}
                          >
                            Grant
                          </Button>
                        ) : (
                          <>
                            <Button
                              size="xs"
                              variant="light"
                              onClick={() => onGrant({ student, entry }, 'Extend')}
                              aria-label={`Extend access of ${who}`}
                            >
                              Extend
                            </Button>
                            <Button
                              size="xs"
                              variant="light"
                              color="red"
                              onClick={() => onRevoke({ student, entry })}
                              aria-label={`Revoke access of ${who}`}
                            >
                              Revoke
                            </Button>
                          </>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

/** /editcourse: per course, who has access until when; grant, extend, revoke and enrol (SPEC.md section 2). */
export default function CourseAccessPage() {
  const list = useAccessList();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const [granting, setGranting] = useState<(Pending & { action: 'Grant' | 'Extend' }) | null>(null);
  const [revoking, setRevoking] = useState<Pending | null>(null);
  const [adding, setAdding] = useState<EnrolTarget | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
  const grant = useMutation({
    mutationFn: adminApi.grantCourseAccess,
    onSuccess: async ({ message }) => {
      toast.success(message || adminToasts.courseAccessGranted);
      setGranting(null);
      await refresh();
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.grantFailed)),
  });
  const revoke = useMutation({
    mutationFn: adminApi.revokeCourseAccess,
    onSuccess: async ({ message }) => {
      toast.success(message || adminToasts.courseAccessRevoked);
      setRevoking(null);
      await refresh();
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.revokeFailed)),
  });

  const daysRequest: DaysRequest | null = granting && {
    action: granting.action,
    studentName: granting.student.name,
    rollno: granting.student.rollno,
    courseLabel: groupTitle(granting.entry),
    currentExpiry: granting.student.accessexpiration,
  };
  const revokeRequest: RevokeRequest | null = revoking && {
    studentName: revoking.student.name,
    rollno: revoking.student.rollno,
    courseLabel: groupTitle(revoking.entry),
  };

  const body = (entries: CourseAccessListEntry[]) => {
    if (entries.length === 0) return <Empty title="No courses available." />;
    const q = filter.trim().toLowerCase();
    const groups = entries.map((entry) => (
      <AccessGroup
        key={entry.courseId}
        entry={entry}
        filter={q}
        onGrant={(p, action) => setGranting({ ...p, action })}
        onRevoke={setRevoking}
        onAdd={(e) => setAdding({ courseId: e.courseId, label: groupTitle(e) })}
      />
    ));
    const anyMatch = !q || entries.some((e) => e.students.some((s) => matches(s, q)));
    return anyMatch ? groups : <Text c="dimmed">No students match “{filter.trim()}”.</Text>;
  };

  return (
    <>
      <PageHeader
        title="Course Access Management"
        description="Grant, extend or revoke each student's access to a course."
        actions={
          <TextInput
            aria-label="Filter students"
            placeholder="Filter by roll no, name or e-mail"
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
            w={{ base: '100%', xs: 300 }}
          />
        }
      />
      <Stack gap="lg">
        <Loaded
          query={list}
          failure={adminToasts.fetchAccessListFailed}
          loading={<TableSkeleton rows={5} label="Loading the access list" />}
        >
          {body}
        </Loaded>
      </Stack>
      <DaysModal
        request={daysRequest}
        pending={grant.isPending}
        onClose={() => setGranting(null)}
        onSubmit={(days) =>
          granting &&
          grant.mutate({ courseId: granting.entry.courseId, studentId: granting.student.studentid, days })
        }
      />
      <RevokeModal
        request={revokeRequest}
        pending={revoke.isPending}
        onClose={() => setRevoking(null)}
        onSubmit={(reason) =>
          revoking &&
          revoke.mutate({
            courseId: revoking.entry.courseId,
            studentId: revoking.student.studentid,
            accessrevokedreason: reason,
          })
        }
      />
      <AddStudentsModal target={adding} onClose={() => setAdding(null)} />
    </>
  );
}
