import { Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconPlayerTrackNextFilled } from '@tabler/icons-react';
import type { StudentVideo } from '../../contract/media';
import classes from './Course.module.css';
import { VideoThumb } from './VideoThumb';

/**
 * The video after the current one, one click away. The button is named by the words it shows
 * ("Play Next", the title, the length), so a speech user can say them (WCAG 2.5.3).
 */
export function PlayNextCard({ video, onPlay }: { video: StudentVideo; onPlay(): void }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <UnstyledButton className={classes.next} onClick={onPlay}>
        <VideoThumb video={video} width={140} />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Text
            size="xs"
            tt="uppercase"
            fw={700}
            c="red.9"
            style={{ display: 'flex', alignItems: 'center', gap: 4 }}
          >
            <IconPlayerTrackNextFilled size={12} aria-hidden="true" /> Play Next
          </Text>
          <Text fw={600} lineClamp={2}>
            {video.title}
          </Text>
          <Text size="xs" c="dimmed">
            {video.duration}
          </Text>
        </Stack>
      </UnstyledButton>
    </Paper>
  );
}
