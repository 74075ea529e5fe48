import { Badge, Text } from '@mantine/core';

/** A revoked certificate's mark in a list: the red badge and, when the school gave one, its reason. */
export function RevokedMark({ reason }: { reason?: string | null }) {
  return (
    <>
      <Badge color="red" variant="light">
        Revoked
      </Badge>
      {reason && (
        <Text size="xs" c="dimmed">
          {reason}
        </Text>
      )}
    </>
  );
}
