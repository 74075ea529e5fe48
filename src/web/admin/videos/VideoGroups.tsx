import { Button, Stack, type MantineSpacing } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AdminVideo } from '../../../contract/videos';
import { adminToasts } from '../../../contract/messages';
import { Empty } from '../ui/Empty';
import { LoadedList } from '../ui/LoadedList';
import { groupVideos, type VideoGroup } from './group-videos';

/**
 * The body of the video screens: every video under its course group, in the server's order, with
 * the shared loading, failure and empty states. `children` draws one group (and keys it).
 */
export function VideoGroups({
  query,
  gap,
  emptyDescription,
  children,
}: {
  query: UseQueryResult<AdminVideo[]>;
  gap: MantineSpacing;
  emptyDescription?: string;
  children(group: VideoGroup): ReactNode;
}) {
  return (
    <Stack gap={gap}>
      <LoadedList
        query={query}
        failure={adminToasts.videosFailed}
        loading="Loading videos"
        rows={5}
        empty={
          <Empty title="No videos yet." description={emptyDescription}>
            <Button component={Link} to="/adminvideo" replace leftSection={<IconCloudUpload size={16} />}>
              Upload Video
            </Button>
          </Empty>
        }
      >
        {(videos) => groupVideos(videos).map(children)}
      </LoadedList>
    </Stack>
  );
}
