import { Center, Loader, Stack, Text } from '@mantine/core';

/** A centred spinner for whole-page waits (session checks, first chunk loads). */
export function FullScreenLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center h="100dvh" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader color="red" />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
