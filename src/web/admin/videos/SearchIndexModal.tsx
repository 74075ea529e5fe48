import { Badge, Button, Group, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { SourceIndexState } from '../../../contract/search';
import { searchMessages } from '../../../contract/search-limits';
import type { AdminVideo } from '../../../contract/videos';
import { adminApi, adminKeys, useVideoIndex } from '../../api/admin';
import { EditModal } from '../ui/EditModal';
import { Loaded } from '../ui/Loaded';
import { ServerReason } from '../ui/ServerReason';
import { useAdminMutation } from '../ui/use-admin-mutation';

const SOURCE_NAME: Record<SourceIndexState['source'], string> = {
  captions: 'Captions',
  screen: 'Text on screen',
  speech: 'Speech',
};

const STATUS: Record<SourceIndexState['status'], { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'gray' },
  running: { label: 'Indexing', color: 'blue' },
  done: { label: 'Done', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  off: { label: 'Off', color: 'gray' },
};

const busy = (s: Pick<SourceIndexState, 'status'>) => s.status === 'queued' || s.status === 'running';

/** What a source's line says in words: its status, the percentage while it runs. */
export function sourceStatusText(
  s: Pick<SourceIndexState, 'status' | 'progress'> & { updatedAt?: string | null },
): string {
  if (s.status === 'off' && s.updatedAt === null) return 'Not yet';
  if (s.status === 'running') return `${Math.floor(s.progress * 100)}%`;
  if (s.status === 'queued' && s.progress > 0) return `Queued (${Math.floor(s.progress * 100)}% done)`;
  return STATUS[s.status].label;
}

function SourceLine({ state }: { state: SourceIndexState }) {
  const name = SOURCE_NAME[state.source];
  const status = STATUS[state.status];
  const entries = `${state.entries} ${state.entries === 1 ? 'entry' : 'entries'}`;
  return (
    <Paper withBorder radius="sm" p="sm" component="li" aria-label={name}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} size="sm">
            {name}
          </Text>
          <Badge
            color={status.color}
            variant="light"
            leftSection={state.status === 'running' ? <Loader size={10} color="blue.8" /> : undefined}
          >
            {sourceStatusText(state)}
          </Badge>
        </Group>
        {busy(state) && (
          <Progress
            value={Math.round(state.progress * 100)}
            animated={state.status === 'running'}
            aria-label={`${name}: ${Math.floor(state.progress * 100)}% indexed`}
          />
        )}
        <Text size="xs" c="dimmed">
          {state.status !== 'off'
            ? entries
            : state.error
              ? `Not indexed: ${state.error}`
              : state.updatedAt === null
                ? 'Not queued yet: a packaged video is queued within a minute.'
                : 'Not indexed.'}
        </Text>
        {state.status === 'failed' && (
          <Text size="sm" c="red" role="alert">
            {state.error ?? 'Indexing failed.'}
          </Text>
        )}
        {state.status === 'queued' && state.error && (
          <Text size="xs" c="dimmed">
            Waiting: {state.error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function IndexState({ video }: { video: AdminVideo }) {
  const index = useVideoIndex(video._id);
  const reindex = useAdminMutation(adminApi.reindexVideo, {
    success: searchMessages.indexQueued,
    failure: 'Could not start indexing.',
    serverWords: true,
    onDone: () => {},
    refresh: adminKeys.searchIndex(video._id),
  });
  return (
    <Loaded
      query={index}
      failure="Could not load the search index state."
      loading={
        <Text size="sm" c="dimmed">
          Loading the search index…
        </Text>
      }
    >
      {({ sources }) => {
        const working = sources.some(busy);
        return (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              What students find when they search this video: its captions, the text on screen (read by OCR)
              and machine speech.
            </Text>
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {sources.map((state) => (
                <SourceLine key={state.source} state={state} />
              ))}
            </Stack>
            <ServerReason reason={reindex.isError ? reindex.reason : null} />
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="xs" c="dimmed" role="status">
                {working ? 'Indexing: this updates as it goes.' : ''}
              </Text>
              <Button
                leftSection={<IconRefresh size={16} aria-hidden="true" />}
                variant="light"
                loading={reindex.isPending}
                disabled={working || video.status !== 'ready'}
                onClick={() => reindex.mutate(video._id)}
              >
                Re-index
              </Button>
            </Group>
          </Stack>
        );
      }}
    </Loaded>
  );
}

/** A video's search index: each source queued / n% / done / failed (with the reason), and Re-index. */
export function SearchIndexModal({ video, onClose }: { video: AdminVideo | null; onClose(): void }) {
  return (
    <EditModal title={video ? `Search index: ${video.title}` : 'Search index'} item={video} onClose={onClose}>
      {(item) => <IndexState video={item} />}
    </EditModal>
  );
}
