import { Accordion, Group, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { AdminVideo } from '../../../contract/videos';
import { useAdminVideos } from '../../api/admin';
import { PageHeader } from '../ui/PageHeader';
import { Thumb } from '../ui/Thumb';
import { DeleteVideoModal } from './DeleteVideoModal';
import { VideoAccessPanel } from './VideoAccessPanel';
import { VideoGroups } from './VideoGroups';
import { VideoStatusBadge } from './VideoStatusBadge';

/** /editvideo: videos by course; opening one loads who may watch it (SPEC.md section 2). */
export default function ManageVideosPage() {
  const videos = useAdminVideos('access', { pollWhileProcessing: true });
  const [open, setOpen] = useState<string[]>([]);
  const [deleting, setDeleting] = useState<AdminVideo | null>(null);

  return (
    <>
      <PageHeader
        title="Manage Videos"
        description="Give or revoke access to a video per student, or delete it."
      />
      <VideoGroups query={videos} gap="xl" emptyDescription="Upload a lecture to manage who can watch it.">
        {(group) => (
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
                    <VideoAccessPanel
                      video={video}
                      opened={open.includes(video._id)}
                      onDelete={setDeleting}
                    />
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </section>
        )}
      </VideoGroups>
      <DeleteVideoModal video={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
