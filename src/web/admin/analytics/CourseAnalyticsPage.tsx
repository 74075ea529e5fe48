import {
  Anchor,
  Badge,
  Group,
  Pagination,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCheck, IconSelector } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  analyticsMessages,
  ANALYTICS_PAGE_SIZE,
  AT_RISK_IDLE_DAYS,
  COURSE_GRID_SORTS,
  type CourseAnalytics,
  type CourseGridSort,
  type GridStudent,
} from '../../../contract/analytics';
import { analyticsCsv, useCourseAnalytics, type CourseGridOptions } from '../../api/analytics';
import { Empty } from '../ui/Empty';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import classes from './Analytics.module.css';
import { DownloadCsv } from './DownloadCsv';
import { ago, percent, watchTime } from './format';
import { heatStyle } from './heat';
import { AnalyticsLink } from './AnalyticsLink';

/** The grid's view, kept in the address so a link opens the same page. */
function useGridOptions(): [CourseGridOptions, (next: Partial<CourseGridOptions>) => void] {
  const [params, setParams] = useSearchParams();
  const sort = COURSE_GRID_SORTS.find((s) => s === params.get('sort')) ?? 'name';
  const options: CourseGridOptions = {
    sort,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    filter: params.get('filter') === 'at-risk' ? 'at-risk' : 'all',
    page: Math.max(1, Number(params.get('page')) || 1),
    pageSize: ANALYTICS_PAGE_SIZE,
  };
  const update = (next: Partial<CourseGridOptions>) => {
    const merged = { ...options, page: 1, ...next };
    setParams(
      { sort: merged.sort, order: merged.order, filter: merged.filter, page: String(merged.page) },
      { replace: true },
    );
  };
  return [options, update];
}

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

const SORT_LABELS: Record<CourseGridSort, string> = {
  name: 'Student',
  rollno: 'Roll No',
  share: 'Watched',
  started: 'Started',
  watchTime: 'Watch time',
  lastActivity: 'Last activity',
};

function SortHeader({
  sort,
  options,
  update,
  align = 'left',
  className,
}: {
  sort: CourseGridSort;
  options: CourseGridOptions;
  update(next: Partial<CourseGridOptions>): void;
  align?: 'left' | 'right';
  className?: string;
}) {
  const active = options.sort === sort;
  const Icon = !active ? IconSelector : options.order === 'asc' ? IconArrowUp : IconArrowDown;
  const next =
    active && options.order === 'asc'
      ? 'desc'
      : active
        ? 'asc'
        : sort === 'name' || sort === 'rollno'
          ? 'asc'
          : 'desc';
  return (
    <Table.Th
      className={className}
      aria-sort={active ? (options.order === 'asc' ? 'ascending' : 'descending') : 'none'}
      ta={align}
    >
      <UnstyledButton
        onClick={() => update({ sort, order: next })}
        fz="sm"
        fw={700}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}
      >
        {SORT_LABELS[sort]}
        <Icon size={14} aria-hidden="true" />
      </UnstyledButton>
    </Table.Th>
  );
}

function GridView({
  data,
  options,
  update,
  stale,
}: {
  data: CourseAnalytics;
  options: CourseGridOptions;
  update(next: Partial<CourseGridOptions>): void;
  stale: boolean;
}) {
  const { course, videos, totals } = data;
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const head = { options, update };
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
            <Paper withBorder radius="md" className={stale ? classes.stale : undefined}>
              <Table.ScrollContainer minWidth={640 + videos.length * 46}>
                <Table verticalSpacing={6} highlightOnHover aria-label="Students by video watched" fz="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <SortHeader sort="name" className={classes.sticky} {...head} />
                      <SortHeader sort="share" align="right" {...head} />
                      <SortHeader sort="started" align="right" {...head} />
                      <SortHeader sort="watchTime" align="right" {...head} />
                      <SortHeader sort="lastActivity" {...head} />
                      {videos.map((v, i) => (
                        <Table.Th key={v._id} className={classes.videoHead} title={v.title}>
                          <AnalyticsLink
                            subject="video"
                            id={v._id}
                            fz="xs"
                            fw={700}
                            aria-label={`Video ${i + 1}: ${v.title}, retention`}
                          >
                            {i + 1}
                          </AnalyticsLink>
                        </Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.students.map((s) => (
                      <StudentRow key={s._id} student={s} data={data} />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
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
    </Stack>
  );
}

function StudentRow({ student: s, data }: { student: GridStudent; data: CourseAnalytics }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" className={classes.sticky} fw={400}>
        <AnalyticsLink subject="student" id={s._id} fw={600} size="sm" lineClamp={1}>
          {s.name}
        </AnalyticsLink>
        <Group gap={4} wrap="nowrap">
          <Text size="xs" c="dimmed" ff="monospace">
            {s.rollno}
          </Text>
          {s.atRisk && (
            <Badge size="xs" color="orange" variant="light">
              At risk
            </Badge>
          )}
          {s.access !== 'active' && (
            <Badge size="xs" color="gray" variant="light">
              {s.access}
            </Badge>
          )}
        </Group>
      </Table.Th>
      <Table.Td className={classes.num}>{percent(s.watchedShare)}</Table.Td>
      <Table.Td className={classes.num}>
        {s.videosStarted} / {data.videos.length}
      </Table.Td>
      <Table.Td className={classes.num}>{watchTime(s.watchSeconds)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }} title={s.lastActivity ?? undefined}>
        {ago(s.lastActivity)}
      </Table.Td>
      {s.cells.map((cell, i) => (
        <Table.Td
          key={data.videos[i]!._id}
          className={classes.cell}
          style={heatStyle(cell.share)}
          aria-label={`${data.videos[i]!.title}: ${percent(cell.share)} watched${cell.completed ? ', completed' : ''}`}
        >
          {cell.completed ? (
            <IconCheck size={14} aria-hidden="true" />
          ) : cell.share > 0 ? (
            percent(cell.share)
          ) : (
            '·'
          )}
        </Table.Td>
      ))}
    </Table.Tr>
  );
}
