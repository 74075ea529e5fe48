import { Group, Paper, Progress, Skeleton, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconCircleCheckFilled } from '@tabler/icons-react';
import type { StudentVideo } from '../../contract/media';
import { parseDuration } from '../player/format';
import classes from './Course.module.css';
import { VideoThumb } from './VideoThumb';

export interface PlaylistProps {
  videos: StudentVideo[];
  currentId: string | undefined;
  loading: boolean;
  onSelect(videoId: string): void;
}

/** 'Course Playlist': every video with thumbnail, duration, title and description; the current one highlighted. */
export function Playlist({ videos, currentId, loading, onSelect }: PlaylistProps) {
  const done = videos.filter((v) => v.progress?.completed).length;
  return (
    <Paper withBorder radius="md" p="sm" component="nav" aria-label="Course Playlist">
      <Group justify="space-between" px={4} mb="xs">
        <Title order={2} size="h5">
          Course Playlist
        </Title>
        {!loading && videos.length > 0 && (
          <Text size="xs" c="dimmed">
            {done} / {videos.length} completed
          </Text>
        )}
      </Group>
      <div className={classes.playlistScroll}>
        {loading ? (
          <Stack gap="sm" aria-busy="true" aria-label="Loading videos">
            {[0, 1, 2, 3].map((i) => (
              <Group key={i} wrap="nowrap" align="flex-start" p={8} data-testid="playlist-skeleton">
                <Skeleton w={120} h={68} style={{ flexShrink: 0 }} />
                <Stack gap={6} style={{ flex: 1 }}>
                  <Skeleton h={12} w="80%" />
                  <Skeleton h={10} />
                  <Skeleton h={10} w="60%" />
                </Stack>
              </Group>
            ))}
          </Stack>
        ) : (
          <Stack gap={4} component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
            {videos.map((video, index) => {
              const current = video._id === currentId;
              return (
                <li key={video._id}>
                  <UnstyledButton
                    className={classes.item}
                    aria-current={current ? 'true' : undefined}
                    onClick={() => onSelect(video._id)}
                  >
                    <VideoThumb video={video} />
                    <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                      <Group gap={6} wrap="nowrap" align="flex-start">
                        <Text size="sm" fw={600} lineClamp={2} style={{ flex: 1 }}>
                          {index + 1}. {video.title}
                        </Text>
                        {video.progress?.completed && (
                          <IconCircleCheckFilled
                            size={18}
                            color="var(--mantine-color-teal-6)"
                            aria-label="Completed"
                            role="img"
                            style={{ flexShrink: 0 }}
                          />
                        )}
                      </Group>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {video.description}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {video.duration}
                      </Text>
                      <WatchedBar video={video} />
                    </Stack>
                  </UnstyledButton>
                </li>
              );
            })}
          </Stack>
        )}
      </div>
    </Paper>
  );
}

/** A thin bar of the share of the video the student has watched; nothing before they start it. */
function WatchedBar({ video }: { video: StudentVideo }) {
  const length = parseDuration(video.duration);
  const watched = video.progress?.watched ?? 0;
  if (!(length > 0) || watched <= 0) return null;
  const percent = Math.min(100, Math.round((watched / length) * 100));
  return (
    <Progress
      value={percent}
      size={4}
      color="teal"
      mt={2}
      aria-label={`${percent}% watched`}
      data-testid="watched-bar"
    />
  );
}
