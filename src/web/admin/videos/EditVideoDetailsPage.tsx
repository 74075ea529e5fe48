import { Button, Image, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconCloudUpload, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminVideo } from '../../../contract/videos';
import { adminToasts } from '../../../contract/messages';
import { useAdminVideos } from '../../api/admin';
import { Empty } from '../ui/Empty';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import classes from '../ui/tables.module.css';
import { EditVideoModal } from './EditVideoModal';
import { groupVideos } from './group-videos';
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

  const body = (list: AdminVideo[]) =>
    list.length === 0 ? (
      <Empty title="No videos yet.">
        <Button component={Link} to="/adminvideo" replace leftSection={<IconCloudUpload size={16} />}>
          Upload Video
        </Button>
      </Empty>
    ) : (
      groupVideos(list).map((group) => (
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
      ))
    );

  return (
    <>
      <PageHeader
        title="Edit Video Details"
        description="Title, description, thumbnail and course of each video."
      />
      <Stack gap="lg">
        <Loaded
          query={videos}
          failure={adminToasts.videosFailed}
          loading={<TableSkeleton rows={5} label="Loading videos" />}
        >
          {body}
        </Loaded>
      </Stack>
      <EditVideoModal video={editing} onClose={() => setEditing(null)} />
    </>
  );
}
