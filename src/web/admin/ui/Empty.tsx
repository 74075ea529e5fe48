import { EmptyState, Paper } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A list with nothing in it: the spec's sentence, and what to do next. */
export function Empty({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" py="xl" px="md">
      <EmptyState
        size="sm"
        title={title}
        description={description}
        icon={<IconInbox size={28} aria-hidden="true" />}
        withIndicatorBackground
      >
        {children && <EmptyState.Actions>{children}</EmptyState.Actions>}
      </EmptyState>
    </Paper>
  );
}
