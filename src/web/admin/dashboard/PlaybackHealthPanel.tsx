import { Group, Paper, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { healthMessages, type PlaybackHealth } from '../../../contract/playback-health';
import { usePlaybackHealth } from '../../api/admin';
import { StatCard } from '../analytics/StatCard';
import { Empty } from '../ui/Empty';
import { Loaded } from '../ui/Loaded';

const BROWSER_NAMES: Record<PlaybackHealth['browsers'][number]['browser'], string> = {
  chrome: 'Chrome',
  edge: 'Edge',
  firefox: 'Firefox',
  safari: 'Safari',
  other: 'Other browsers',
};

const seconds = (value: number | null) =>
  value === null ? '–' : `${value < 10 ? value.toFixed(1) : Math.round(value)} s`;
const percent = (value: number | null) =>
  value === null ? '–' : `${value === 0 ? '0' : value < 0.001 ? '<0.1' : (value * 100).toFixed(1)} %`;
const plural = (n: number, one: string) => `${n.toLocaleString('en-IN')} ${one}${n === 1 ? '' : 's'}`;

function Figures({ health }: { health: PlaybackHealth }) {
  if (health.playbacks === 0)
    return (
      <Empty
        title="No playback in the last 24 hours."
        description="Startup time, stalls and errors appear here once students watch videos."
      />
    );
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <StatCard
          label="Startup p50"
          value={seconds(health.startupP50)}
          hint="half of the videos start faster"
        />
        <StatCard label="Startup p95" value={seconds(health.startupP95)} hint="19 in 20 start faster" />
        <StatCard
          label="Stall ratio"
          value={percent(health.stallRatio)}
          hint="of watching time spent waiting"
        />
        <StatCard
          label="Error rate"
          value={percent(health.errorRate)}
          hint={`of ${plural(health.playbacks, 'playback')} ended in an error`}
        />
      </SimpleGrid>
      <Group
        gap="lg"
        mt="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0 }}
        aria-label="By browser"
      >
        {health.browsers.map((b) => (
          <Text component="li" size="sm" c="dimmed" key={b.browser}>
            {BROWSER_NAMES[b.browser]}: {plural(b.playbacks, 'playback')}, {plural(b.errors, 'error')}
          </Text>
        ))}
      </Group>
    </>
  );
}

/** The dashboard's "Playback health (24 h)" panel: how fast videos start, how often they stall or fail. */
export function PlaybackHealthPanel() {
  const health = usePlaybackHealth();
  return (
    <section aria-labelledby="playback-health">
      <Title order={2} size="h3" id="playback-health" mb="sm">
        Playback health (24 h)
      </Title>
      <Loaded
        query={health}
        failure={healthMessages.loadFailed}
        loading={
          <SimpleGrid
            cols={{ base: 2, sm: 4 }}
            spacing="sm"
            aria-busy="true"
            aria-label="Loading playback health"
          >
            {[0, 1, 2, 3].map((i) => (
              <Paper withBorder radius="md" p="sm" key={i}>
                <Skeleton height={12} width="50%" />
                <Skeleton height={24} width="40%" mt="xs" />
              </Paper>
            ))}
          </SimpleGrid>
        }
      >
        {(data) => <Figures health={data} />}
      </Loaded>
    </section>
  );
}
