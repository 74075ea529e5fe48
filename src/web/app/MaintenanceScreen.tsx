import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Logo } from '../ui/Logo';
import { productName } from '../ui/product';

function formatOpening(opensAt: string | null | undefined, timeZone: string | undefined): string | null {
  if (!opensAt) return null;
  const at = new Date(opensAt);
  const local = new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);
  const zoned = timeZone
    ? new Intl.DateTimeFormat('en-GB', {
        hour: '2-digit',
        minute: '2-digit',
        timeZone,
        timeZoneName: 'short',
      }).format(at)
    : null;
  return zoned ? `${local} (${zoned})` : local;
}

/** Shown outside opening hours, or when the server time cannot be read. */
const hh = (hour: number) => `${String(hour % 24).padStart(2, '0')}:00`;

export function MaintenanceScreen({
  opensAt,
  timeZone,
  hours,
}: {
  opensAt?: string | null;
  timeZone?: string;
  hours?: [number, number] | null;
}) {
  const when = formatOpening(opensAt, timeZone);
  return (
    <Center mih="100dvh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" maw={480} w="100%" role="alert">
        <Stack align="center" ta="center">
          <Logo />
          <Title order={1} size="h2">
            We are closed right now
          </Title>
          <Text>
            {hours
              ? `${productName()} is available daily from ${hh(hours[0])} to ${hh(hours[1])} (${timeZone}) and is under maintenance outside those hours.`
              : `${productName()} is under maintenance or cannot be reached right now.`}
          </Text>
          <Text fw={600}>{when ? `It opens again ${when}.` : 'Please try again in a little while.'}</Text>
          <Text size="sm" c="dimmed">
            This page checks again every minute and lets you in as soon as it opens.
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
