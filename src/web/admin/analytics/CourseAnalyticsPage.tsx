import { Anchor, Group, Pagination, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { analyticsMessages, AT_RISK_IDLE_DAYS } from '../../../contract/analytics';
import { analyticsCsv, useCourseAnalytics, type CourseGridOptions } from '../../api/analytics';
import { Empty } from '../ui/Empty';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import { CourseGrid, type CourseGridProps } from './CourseGrid';
import { DownloadCsv } from '../ui/DownloadCsv';
import { heatStyle } from './heat';
import { useGridOptions } from './use-grid-options';
import { CourseLiveAttendance } from '../live/CourseLiveAttendance';

/** /adminanalytics/course/{id}: who is behind, video by video. */
export default function CourseAnalyticsPage() {
  const { courseId = '' } = useParams();
  const [options, update] = useGridOptions();
  const grid = useCourseAnalytics(courseId, options);
  return (
    <Loaded
      query={grid}
      failure={analyticsMessages.loadFailed}
      loading={<TableSkeleton rows={5} label="Loading course analytics" />}
    >
      {(data) => <GridView data={data} options={options} update={update} stale={grid.isPlaceholderData} />}
    </Loaded>
  );
}

function GridView({ data, options, update, stale }: CourseGridProps) {
  const { course, videos, totals } = data;
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <Stack gap="md">
      <Anchor component={Link} to={`/admin/course/${course._id}`} replace size="sm">
        ← {course.name}
      </Anchor>
      <PageHeader
        title={`${course.name} — learning analytics`}
        description={`Batch ${course.batch} · ${course.coursecode} · ${totals.students} students · ${videos.length} videos`}
        actions={
          <DownloadCsv
            href={analyticsCsv.course(course._id, options)}
            label={options.filter === 'at-risk' ? 'Download at-risk CSV' : 'Download CSV'}
          />
        }
      />
      {totals.students === 0 ? (
        <Empty
          title="No students enrolled in this course yet."
          description="Grant course access to students and their watching shows here."
        />
      ) : (
        <>
          <Group justify="space-between" gap="sm">
            <SegmentedControl
              value={options.filter}
              onChange={(filter) => update({ filter: filter as CourseGridOptions['filter'] })}
              data={[
                { value: 'all', label: `All students (${totals.students})` },
                { value: 'at-risk', label: `At risk (${totals.atRisk})` },
              ]}
              aria-label="Which students"
            />
            <Group gap={6} wrap="nowrap" aria-hidden="true">
              <Text size="xs" c="dimmed">
                0%
              </Text>
              {[0.05, 0.25, 0.5, 0.75, 1].map((s) => (
                <span key={s} style={{ ...heatStyle(s), width: 18, height: 12, borderRadius: 2 }} />
              ))}
              <Text size="xs" c="dimmed">
                100% watched · <IconCheck size={11} /> completed
              </Text>
            </Group>
          </Group>
          <Text size="xs" c="dimmed">
            At risk: active access, and fewer than half of the videos started or nothing watched for{' '}
            {AT_RISK_IDLE_DAYS} days.
          </Text>
          {data.students.length === 0 ? (
            <Empty title="No students at risk." description="Everyone with active access is keeping up." />
          ) : (
            <CourseGrid data={data} options={options} update={update} stale={stale} />
          )}
          {pages > 1 && (
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {(data.page - 1) * data.pageSize + 1}–{Math.min(data.total, data.page * data.pageSize)} of{' '}
                {data.total}
              </Text>
              <Pagination
                total={pages}
                value={data.page}
                onChange={(page) => update({ page })}
                size="sm"
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              />
            </Group>
          )}
        </>
      )}
      <CourseLiveAttendance courseId={course._id} />
    </Stack>
  );
}
