import { Accordion, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminVideo } from '../../../contract/videos';
import { adminToasts } from '../../../contract/messages';
import { useAdminVideos } from '../../api/admin';
import { Empty } from '../ui/Empty';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import { Thumb } from '../ui/Thumb';
import { DeleteVideoModal } from './DeleteVideoModal';
import { groupVideos } from './group-videos';
import { VideoAccessPanel } from './VideoAccessPanel';
import { VideoStatusBadge } from './VideoStatusBadge';

/** /editvideo: videos by course; opening one loads who may watch it (SPEC.md section 2). */
export default function ManageVideosPage() {
  const videos = useAdminVideos('access', { pollWhileProcessing: true });
  const [open, setOpen] = useState<string[]>([]);
  const [deleting, setDeleting] = useState<AdminVideo | null>(null);

  const body = (list: AdminVideo[]) =>
    list.length === 0 ? (
      <Empty title="No videos yet." description="Upload a lecture to manage who can watch it.">
        <Button component={Link} to="/adminvideo" replace leftSection={<IconCloudUpload size={16} />}>
          Upload Video
        </Button>
      </Empty>
    ) : (
      groupVideos(list).map((group) => (
        <section key={group.key} aria-label={group.title}>
          <Title order={2} size="h4" mb="xs">
            {group.title}
          </Title>
          <Accordion
            multiple
            value={open}
            onChange={setOpen}
            variant="separated"
            radius="md"
            chevronPosition="right"
          >
            {group.videos.map((video) => (
              <Accordion.Item key={video._id} value={video._id}>
                <Accordion.Control aria-label={`${video.title}: show student access`}>
                  <Group wrap="nowrap" gap="sm">
                    <Thumb src={video.thumbnail} name={video.title} width={72} />
                    <div style={{ minWidth: 0, flex: 1 }}>
                      <Text fw={600} size="sm" lineClamp={1}>
                        {video.title}
                      </Text>
                      <Group gap="xs" mt={2}>
                        <Text size="xs" c="dimmed">
                          {video.duration}
                        </Text>
                        <VideoStatusBadge video={video} />
                      </Group>
                    </div>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <VideoAccessPanel video={video} opened={open.includes(video._id)} onDelete={setDeleting} />
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </section>
      ))
    );

  return (
    <>
      <PageHeader
        title="Manage Videos"
        description="Give or revoke access to a video per student, or delete it."
      />
      <Stack gap="xl">
        <Loaded
          query={videos}
          failure={adminToasts.videosFailed}
          loading={<TableSkeleton rows={5} label="Loading videos" />}
        >
          {body}
        </Loaded>
      </Stack>
      <DeleteVideoModal video={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
