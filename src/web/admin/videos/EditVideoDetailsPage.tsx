import { Group, Image, Paper, Table, Text, Title } from '@mantine/core';
import { IconBadgeCc, IconHelpCircle, IconTextScan2 } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminVideo } from '../../../contract/videos';
import { useAdminVideos } from '../../api/admin';
import { PageHeader } from '../ui/PageHeader';
import classes from '../ui/tables.module.css';
import { CaptionsModal } from './CaptionsModal';
import { CheckpointsModal } from './CheckpointsModal';
import { EditVideoModal } from './EditVideoModal';
import { SearchIndexModal } from './SearchIndexModal';
import { VideoGroups } from './VideoGroups';
import { VideoStatusBadge } from './VideoStatusBadge';
import { DataTable, EditButton, RowButton } from '../ui/DataTable';

export const NOT_UPLOADED = 'Not uploaded';

function VideoTable({
  videos,
  onEdit,
  onCaptions,
  onIndex,
  onCheckpoints,
}: {
  videos: AdminVideo[];
  onEdit(video: AdminVideo): void;
  onCaptions(video: AdminVideo): void;
  onIndex(video: AdminVideo): void;
  onCheckpoints(video: AdminVideo): void;
}) {
  return (
    <DataTable
      minWidth={820}
      verticalSpacing="sm"
      columns={['Thumbnail', 'Title', 'Description', 'Duration', 'Status', 'Actions']}
    >
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
            <Group gap="xs" justify="flex-end" wrap="nowrap">
              <EditButton label={`Edit ${video.title}`} onClick={() => onEdit(video)} />
              {(
                [
                  ['Captions', IconBadgeCc, onCaptions],
                  ['Search index', IconTextScan2, onIndex],
                  ['Checkpoints', IconHelpCircle, onCheckpoints],
                ] as const
              ).map(([action, icon, show]) => (
                <RowButton
                  key={action}
                  icon={icon}
                  label={`${action} of ${video.title}`}
                  onClick={() => show(video)}
                >
                  {action}
                </RowButton>
              ))}
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}

/** /editvideodetails: videos by course in tables, each with an Edit modal (SPEC.md section 2). */
export default function EditVideoDetailsPage() {
  const videos = useAdminVideos('edit', { pollWhileProcessing: true });
  const [editing, setEditing] = useState<AdminVideo | null>(null);
  const [captioning, setCaptioning] = useState<AdminVideo | null>(null);
  const [indexing, setIndexing] = useState<AdminVideo | null>(null);
  const [checkpointing, setCheckpointing] = useState<AdminVideo | null>(null);

  return (
    <>
      <PageHeader
        title="Edit Video Details"
        description="Title, description, thumbnail, course, captions, search index and checkpoints of each video."
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
            <VideoTable
              videos={group.videos}
              onEdit={setEditing}
              onCaptions={setCaptioning}
              onIndex={setIndexing}
              onCheckpoints={setCheckpointing}
            />
          </Paper>
        )}
      </VideoGroups>
      <EditVideoModal item={editing} onClose={() => setEditing(null)} />
      <CaptionsModal video={captioning} onClose={() => setCaptioning(null)} />
      <SearchIndexModal video={indexing} onClose={() => setIndexing(null)} />
      <CheckpointsModal video={checkpointing} onClose={() => setCheckpointing(null)} />
    </>
  );
}
