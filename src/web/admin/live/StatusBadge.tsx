import { Badge } from '@mantine/core';
import type { LiveClassStatus } from '../../../contract/live';

const LOOK: Record<LiveClassStatus, { label: string; color: string }> = {
  scheduled: { label: 'Upcoming', color: 'blue' },
  live: { label: 'Live', color: 'red' },
  ended: { label: 'Ended', color: 'gray' },
};

/** Where a class is: upcoming, live or ended. */
export function StatusBadge({ status }: { status: LiveClassStatus }) {
  const look = LOOK[status];
  return (
    <Badge color={look.color} variant={status === 'live' ? 'filled' : 'light'}>
      {look.label}
    </Badge>
  );
}
