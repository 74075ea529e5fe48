import { Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { STUDENT_PAGE_SIZE_MAX, type AdminStudent } from '../../../contract/admin-students';
import type { CourseAccessListEntry } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { adminApi, useAccessList } from '../../api/admin';
import { useStudents } from '../../api/admin-students';
import { Empty } from '../ui/Empty';
import { LoadedList } from '../ui/LoadedList';
import { PageHeader } from '../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { useAdminMutation } from '../ui/use-admin-mutation';
import { EnrolSelectedModal } from '../students/EnrolSelectedModal';
import { AccessGroup, accessIds, groupTitle, type Pending } from './AccessGroup';
import { matchesFilter } from './AccessGroupFrame';
import { AddStudentsModal, type EnrolTarget } from './AddStudentsModal';
import { DaysModal, type DaysRequest } from './DaysModal';
import { RevokeModal, type RevokeRequest } from './RevokeModal';
import { UnassignedGroup } from './UnassignedGroup';

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
        <LoadedList
          query={list}
          failure={adminToasts.fetchAccessListFailed}
          loading="Loading the access list"
          rows={5}
          empty={<Empty title="No courses available." />}
        >
          {body}
        </LoadedList>
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
