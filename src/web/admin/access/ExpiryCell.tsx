import { Stack, Text } from '@mantine/core';
import { expiryLabel, type AccessVerdict } from '../../../contract/access-policy';
import { formatDMY } from '../ui/format';
import classes from '../ui/tables.module.css';

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
