import { Badge, Loader, Tooltip } from '@mantine/core';
import type { AdminVideo } from '../../../contract/videos';

/** Where packaging is: Processing (spinner), Ready, or Failed with the reason on hover. */
export function VideoStatusBadge({ video }: { video: Pick<AdminVideo, 'status' | 'failureReason'> }) {
  if (video.status === 'ready')
    return (
      <Badge color="teal" variant="light">
        Ready
      </Badge>
    );
  if (video.status === 'failed')
    return (
      <Tooltip label={video.failureReason ?? 'Packaging failed'} multiline w={240} withArrow>
        <Badge color="red" variant="light" tabIndex={0}>
          Failed
        </Badge>
      </Tooltip>
    );
  return (
    <Badge color="yellow" variant="light" leftSection={<Loader size={10} color="yellow.8" />}>
      Processing
    </Badge>
  );
}
