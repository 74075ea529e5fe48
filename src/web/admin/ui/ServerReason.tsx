import { Text } from '@mantine/core';

/** The server's reason for refusing a form, under it: the toast keeps the catalogue's text (SPEC.md section 8). */
export function ServerReason({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <Text size="sm" c="red.7" role="alert">
      {reason}
    </Text>
  );
}
