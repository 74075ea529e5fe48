import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useAdminVideos } from '../../api/admin';
import { VideoStatusBadge } from './VideoStatusBadge';

/** Videos uploaded from this page since it opened, with their packaging status (polled until ready). */
export function RecentUploads({ ids }: { ids: string[] }) {
  const videos = useAdminVideos('edit', { pollWhileProcessing: true, enabled: ids.length > 0 });
  if (ids.length === 0) return null;
  const byId = new Map((videos.data ?? []).map((v) => [v._id, v]));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="recent-uploads">
      <Title order={2} size="h4" id="recent-uploads" mb="xs">
        Uploaded just now
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        A video can be watched once it is Ready; packaging usually takes seconds to a few minutes.
      </Text>
      <Stack gap="xs">
        {ids.map((id) => {
          const video = byId.get(id);
          return (
            <Group key={id} justify="space-between" wrap="nowrap" gap="sm" aria-label={video?.title}>
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} truncate="end">
                  {video?.title ?? 'Loading…'}
                </Text>
                <Text size="xs" c="dimmed" truncate="end">
                  {video?.course ? `${video.course.name} (Batch ${video.course.batch})` : 'Unassigned'}
                  {video?.duration ? ` · ${video.duration}` : ''}
                </Text>
              </div>
              {video && <VideoStatusBadge video={video} />}
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}
