import { Card, Group, Skeleton, Stack } from '@mantine/core';

/** A placeholder shaped like a media card while its data loads: image on top (grid) or beside (list). */
export function CardSkeleton({ layout = 'grid' }: { layout?: 'grid' | 'list' }) {
  const lines = (
    <Stack gap={8} style={{ flex: 1 }}>
      <Skeleton height={16} width="70%" />
      <Skeleton height={10} />
      <Skeleton height={10} width="85%" />
      <Skeleton height={10} width="40%" />
    </Stack>
  );
  return (
    <Card withBorder radius="md" padding="md" aria-hidden="true" data-testid="card-skeleton">
      {layout === 'grid' ? (
        <>
          <Card.Section>
            <Skeleton style={{ aspectRatio: '16 / 9' }} radius={0} />
          </Card.Section>
          <Stack mt="md">{lines}</Stack>
        </>
      ) : (
        <Group align="flex-start" wrap="nowrap">
          <Skeleton w={112} style={{ aspectRatio: '16 / 9', flexShrink: 0 }} />
          {lines}
        </Group>
      )}
    </Card>
  );
}
