import { Badge, Button, Group, Stack, Table, Text, type ButtonProps } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';

import { useState } from 'react';
import { STUDENT_PAGE_SIZE_MAX, type AdminStudent } from '../../../contract/admin-students';
import {
  courseAccess,
  enrollmentOf,
  expiryLabel,
  statusLabel,
  type AccessVerdict,
} from '../../../contract/access-policy';
import type { CourseAccessListEntry, CourseAccessStudent } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { adminApi, useAccessList } from '../../api/admin';
import { useStudents } from '../../api/admin-students';
import { useSchoolTimeZone } from '../../api/session';
import { useAdminMutation } from '../ui/use-admin-mutation';

import { Empty } from '../ui/Empty';
import { formatDMY } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import classes from '../ui/tables.module.css';
import { EnrolSelectedModal } from '../students/EnrolSelectedModal';
import { AccessGroupFrame, AccessTable, matchesFilter, StudentCells, studentCount } from './AccessGroupFrame';
import { AddStudentsModal, type EnrolTarget } from './AddStudentsModal';
import { DaysModal, type DaysRequest } from './DaysModal';
import { RevokeModal, type RevokeRequest } from './RevokeModal';
import { UnassignedGroup } from './UnassignedGroup';
import { SearchInput } from '../ui/SearchInput';

export const groupTitle = (entry: Pick<CourseAccessListEntry, 'courseName' | 'batch'>) =>
  `${entry.courseName} (Batch ${entry.batch})`;

/** The expiry and how far it is, by the access rule: "in 12 days", "today", or "expired" in red. */
export function ExpiryCell({ iso, verdict }: { iso: string; verdict: AccessVerdict }) {
  const label = expiryLabel(verdict);
  const days = verdict.daysLeft ?? -1;
  return (
    <Stack gap={0}>
      <Text size="sm" className={classes.nowrap}>
        {formatDMY(iso)}
      </Text>
      <Text size="xs" c={label === 'expired' ? 'red.7' : days <= 7 ? 'orange.8' : 'dimmed'}>
        {label}
      </Text>
    </Stack>
  );
}

type Pending = { student: CourseAccessStudent; entry: CourseAccessListEntry };
/** The course and student a pending grant or revoke is for, as the access API names them. */
const accessIds = ({ entry, student }: Pending) => ({
  courseId: entry.courseId,
  studentId: student.studentid,
});

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
  const timeZone = useSchoolTimeZone();
  const rows = filter ? entry.students.filter((s) => matchesFilter(s, filter)) : entry.students;
  if (filter && rows.length === 0) return null;
  return (
    <AccessGroupFrame
      title={title}
      count={studentCount(entry.students.length)}
      action={
        <Button
          size="xs"
          variant="light"
          leftSection={<IconUserPlus size={14} aria-hidden="true" />}
          onClick={() => onAdd(entry)}
          aria-label={`Add students to ${title}`}
        >
          Add students
        </Button>
      }
    >
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No students enrolled yet.
        </Text>
      ) : (
        <AccessTable>
          {rows.map((student) => {
            const who = `${student.name} (${student.rollno})`;
            const verdict = courseAccess(enrollmentOf(student), Date.now(), timeZone);
            const revoked = verdict.state === 'revoked';
            return (
              <Table.Tr key={student.studentid}>
                <StudentCells student={student} />
                <Table.Td>
                  <ExpiryCell iso={student.accessexpiration} verdict={verdict} />
                </Table.Td>
                <Table.Td>
                  <Badge
                    color={revoked ? 'red' : 'teal'}
                    variant="light"
                    title={revoked ? (student.accessrevokedreason ?? undefined) : undefined}
                  >
                    {statusLabel(verdict)}
                  </Badge>
                  {revoked && student.accessrevokedreason && (
                    <Text size="xs" c="dimmed" lineClamp={2} maw={200}>
                      {student.accessrevokedreason}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td className={classes.actions}>
                  <AccessActions
                    who={who}
                    revoked={revoked}
                    onGrant={(action) => onGrant({ student, entry }, action)}
                    onRevoke={() => onRevoke({ student, entry })}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </AccessTable>
      )}
    </AccessGroupFrame>
  );
}

/** A student's row buttons: Grant where the access was revoked, otherwise Extend and Revoke. */
function AccessActions({
  who,
  revoked,
  onGrant,
  onRevoke,
}: {
  who: string;
  revoked: boolean;
  onGrant(action: 'Grant' | 'Extend'): void;
  onRevoke(): void;
}) {
  /** One small button; `look` is its variant and colour. */
  const button = (text: string, label: string, run: () => void, look: ButtonProps) => (
    <Button key={text} size="xs" {...look} onClick={run} aria-label={label}>
      {text}
    </Button>
  );
  return (
    <Group gap={6} wrap="nowrap">
      {revoked
        ? button('Grant', `Grant access to ${who}`, () => onGrant('Grant'), { color: 'teal' })
        : [
            button('Extend', `Extend access of ${who}`, () => onGrant('Extend'), { variant: 'light' }),
            button('Revoke', `Revoke access of ${who}`, onRevoke, { variant: 'light', color: 'red' }),
          ]}
    </Group>
  );
}

/**
 * /editcourse: per course, who has access until when; grant, extend, revoke and enrol; then the
 * students in no course, 'Unassigned' (SPEC.md section 2).
 */
export default function CourseAccessPage() {
  const list = useAccessList();
  const unassigned = useStudents({ unassigned: true, pageSize: STUDENT_PAGE_SIZE_MAX });
  const [filter, setFilter] = useState('');
  const [granting, setGranting] = useState<(Pending & { action: 'Grant' | 'Extend' }) | null>(null);
  const [revoking, setRevoking] = useState<Pending | null>(null);
  const [adding, setAdding] = useState<EnrolTarget | null>(null);
  const [assigning, setAssigning] = useState<AdminStudent | null>(null);

  const grant = useAdminMutation(adminApi.grantCourseAccess, {
    success: adminToasts.courseAccessGranted,
    failure: adminToasts.grantFailed,
    onDone: () => setGranting(null),
  });
  const revoke = useAdminMutation(adminApi.revokeCourseAccess, {
    success: adminToasts.courseAccessRevoked,
    failure: adminToasts.revokeFailed,
    onDone: () => setRevoking(null),
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
    const loose = unassigned.data?.students ?? [];
    const anyMatch =
      !q ||
      entries.some((e) => e.students.some((s) => matchesFilter(s, q))) ||
      loose.some((s) => matchesFilter(s, q));
    if (!anyMatch) return <Text c="dimmed">No students match “{filter.trim()}”.</Text>;
    return (
      <>
        {groups}
        <UnassignedGroup
          students={loose}
          total={unassigned.data?.total ?? 0}
          filter={q}
          onGrant={setAssigning}
        />
      </>
    );
  };

  return (
    <>
      <PageHeader
        title="Course Access Management"
        description="Grant, extend or revoke each student's access to a course."
        actions={
          <SearchInput
            label="Filter students"
            placeholder="Filter by roll no, name or e-mail"
            value={filter}
            onChange={setFilter}
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
        onSubmit={(days) => granting && grant.mutate({ ...accessIds(granting), accessexpiration: days })}
      />
      <RevokeModal
        request={revokeRequest}
        pending={revoke.isPending}
        onClose={() => setRevoking(null)}
        onSubmit={(reason) =>
          revoking && revoke.mutate({ ...accessIds(revoking), accessrevokedreason: reason })
        }
      />
      <AddStudentsModal target={adding} onClose={() => setAdding(null)} />
      <EnrolSelectedModal
        studentIds={assigning ? [assigning._id] : []}
        opened={assigning !== null}
        onDone={() => setAssigning(null)}
        title={assigning ? `Grant a course to ${assigning.name} (${assigning.rollno})` : undefined}
      />
    </>
  );
}
