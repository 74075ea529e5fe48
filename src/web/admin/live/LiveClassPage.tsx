import { Anchor, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { liveMessages, type AdminLiveClass } from '../../../contract/live';
import { useAdminCourses } from '../../api/admin';
import { useLiveClasses } from '../../api/live';
import { Empty } from '../ui/Empty';
import { courseLabel, formatDateTime } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { Section } from '../ui/Section';
import { TableSkeleton } from '../ui/TableSkeleton';
import { classWhen } from './class-form';
import { DeleteClassModal, EditClassModal, RotateKeyModal } from './ClassModals';
import { AttendanceSection } from './AttendanceSection';
import { IngestPanel } from './IngestPanel';
import { RecordingPanel } from './RecordingStatus';
import { StatusBadge } from './StatusBadge';

const back = (
  <Anchor component={Link} to="/adminlive" size="sm">
    <Group gap={4} component="span">
      <IconArrowLeft size={14} aria-hidden="true" /> All live classes
    </Group>
  </Anchor>
);

/**
 * /adminlive/:classId: one class for staff of its course: when, its status (once ended, where its
 * recording's packaging is), where the encoder sends it (key hidden until shown, copy buttons, a new
 * key after a confirmation), edit and delete, and who attended. The class comes from the staff list (it holds only the classes this member manages).
 */
export default function LiveClassPage() {
  const { classId } = useParams();
  const classes = useLiveClasses();
  return (
    <Loaded
      query={classes}
      failure="Could not load the live class."
      loading={<TableSkeleton rows={4} label="Loading the live class" />}
    >
      {(list) => {
        const live = list.find((c) => c._id === classId);
        if (!live)
          return (
            <Stack>
              {back}
              <Empty
                title={liveMessages.notFound}
                description="It was deleted, or it is not a class of your courses."
              />
            </Stack>
          );
        return <ClassView live={live} />;
      }}
    </Loaded>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </Stack>
  );
}

function ClassView({ live }: { live: AdminLiveClass }) {
  const navigate = useNavigate();
  const course = useAdminCourses('video').data?.find((c) => c._id === live.courseId);
  const [editing, setEditing] = useState<AdminLiveClass | null>(null);
  const [deleting, setDeleting] = useState<AdminLiveClass | null>(null);
  const [rotating, setRotating] = useState<AdminLiveClass | null>(null);
  return (
    <>
      <Stack gap="xs" mb="xs">
        {back}
      </Stack>
      <PageHeader
        title={live.title}
        description={live.description || undefined}
        actions={
          <>
            {live.status !== 'ended' && (
              <Button variant="default" onClick={() => setEditing(live)}>
                Edit
              </Button>
            )}
            {live.status !== 'live' && (
              <Button variant="outline" color="red" onClick={() => setDeleting(live)}>
                Delete
              </Button>
            )}
          </>
        }
      />
      <Stack gap="lg">
        <Section id="live-class-facts" title="The class">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Fact label="Course">{course ? courseLabel(course) : '…'}</Fact>
            <Fact label="When">{classWhen(live, formatDateTime)}</Fact>
            <Fact label="Status">
              <StatusBadge status={live.status} />
            </Fact>
          </SimpleGrid>
          {live.recording && <RecordingPanel recording={live.recording} />}
          {/* An ended class gets its recording job whenever it was streamed (ingest.ts): none, no recording. */}
          {live.status === 'ended' && !live.recording ? (
            <Text size="sm" c="dimmed">
              No recording: nothing was streamed to this class.
            </Text>
          ) : (
            <Anchor component={Link} to={`/course/${live.courseId}?video=${live.videoId}`} size="sm">
              {live.status === 'ended' ? 'Watch the recording' : 'Open the class as students see it'}
            </Anchor>
          )}
        </Section>
        {live.status !== 'ended' && (
          <Section id="live-class-ingest" title="Streaming from OBS">
            <IngestPanel live={live} onRotate={() => setRotating(live)} />
          </Section>
        )}
        <AttendanceSection live={live} />
      </Stack>
      <EditClassModal item={editing} onClose={() => setEditing(null)} />
      <DeleteClassModal
        live={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => void navigate('/adminlive', { replace: true })}
      />
      <RotateKeyModal live={rotating} onClose={() => setRotating(null)} />
    </>
  );
}
