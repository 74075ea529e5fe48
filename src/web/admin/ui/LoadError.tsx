import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** A load that failed: the spec's wording and a way to try again. */
export function LoadError({ title, onRetry }: { title: string; onRetry(): void }) {
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
    >
      <Button size="xs" color="red" variant="outline" mt="xs" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
