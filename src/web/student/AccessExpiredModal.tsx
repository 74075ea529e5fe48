import { Modal, Stack, Text } from '@mantine/core';
import type { StudentCourse } from '../../contract/courses';
import { formatDate } from '../ui/format-date';

/** SPEC.md section 8: why an expired or revoked course does not open. */
export function AccessExpiredModal({ course, onClose }: { course: StudentCourse | null; onClose(): void }) {
  return (
    <Modal
      opened={course !== null}
      onClose={onClose}
      title="Access Expired"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {course && (
        <Stack gap="xs">
          <Text>Course: {course.name}</Text>
          <Text>Reason: {course.accessrevokedreason?.trim() || 'No reason provided'}</Text>
          <Text>This course expired on {formatDate(course.accessexpiration)}.</Text>
          <Text c="dimmed">Please contact the administrator to regain access.</Text>
        </Stack>
      )}
    </Modal>
  );
}
