import { Button, Image, Paper, Table, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminVideo } from '../../../contract/videos';
import { useAdminVideos } from '../../api/admin';
import { PageHeader } from '../ui/PageHeader';
import classes from '../ui/tables.module.css';
import { EditVideoModal } from './EditVideoModal';
import { VideoGroups } from './VideoGroups';
import { VideoStatusBadge } from './VideoStatusBadge';

export const NOT_UPLOADED = 'Not uploaded';

function VideoTable({ videos, onEdit }: { videos: AdminVideo[]; onEdit(video: AdminVideo): void }) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Thumbnail</Table.Th>
            <Table.Th>Title</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th className={classes.actions}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {videos.map((video) => (
            <Table.Tr key={video._id}>
              <Table.Td w={120}>
                {video.customThumbnail ? (
                  <Image
                    src={video.customThumbnail}
                    alt=""
                    w={96}
                    radius="sm"
                    style={{ aspectRatio: '16 / 9' }}
                  />
                ) : (
                  <Text size="xs" c="dimmed">
                    {NOT_UPLOADED}
                  </Text>
                )}
              </Table.Td>
              <Table.Td fw={600}>{video.title}</Table.Td>
              <Table.Td maw={320}>
                <Text size="sm" lineClamp={2} title={video.description}>
                  {video.description}
                </Text>
              </Table.Td>
              <Table.Td>{video.duration}</Table.Td>
              <Table.Td>
                <VideoStatusBadge video={video} />
              </Table.Td>
              <Table.Td className={classes.actions}>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconPencil size={14} aria-hidden="true" />}
                  onClick={() => onEdit(video)}
                  aria-label={`Edit ${video.title}`}
                >
                  Edit
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /editvideodetails: videos by course in tables, each with an Edit modal (SPEC.md section 2). */
export default function EditVideoDetailsPage() {
  const videos = useAdminVideos('edit', { pollWhileProcessing: true });
  const [editing, setEditing] = useState<AdminVideo | null>(null);

  return (
    <>
      <PageHeader
        title="Edit Video Details"
        description="Title, description, thumbnail and course of each video."
      />
      <VideoGroups query={videos} gap="lg">
        {(group) => (
          <Paper
            key={group.key}
            withBorder
            radius="md"
            p={{ base: 'sm', sm: 'md' }}
            component="section"
            aria-label={group.title}
          >
            <Title order={2} size="h4" mb="sm">
              {group.title}
            </Title>
            <VideoTable videos={group.videos} onEdit={setEditing} />
          </Paper>
        )}
      </VideoGroups>
      <EditVideoModal video={editing} onClose={() => setEditing(null)} />
    </>
  );
}
