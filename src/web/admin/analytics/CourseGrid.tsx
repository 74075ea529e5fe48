import { Badge, Group, Paper, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCheck, IconSelector } from '@tabler/icons-react';
import type { CourseAnalytics, CourseGridSort, GridStudent } from '../../../contract/analytics';
import type { CourseGridOptions } from '../../api/analytics';
import classes from './Analytics.module.css';
import { AnalyticsLink } from './AnalyticsLink';
import { ago, percent, watchTime } from './format';
import { heatStyle } from './heat';

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

/** One page of a course's grid, how it is sorted and filtered, and a way to change that. */
export interface CourseGridProps {
  data: CourseAnalytics;
  options: CourseGridOptions;
  update(next: Partial<CourseGridOptions>): void;
  /** The page shown is the previous one while the next loads. */
  stale: boolean;
}

/** The students of one page by video watched: sortable columns, a heat cell per video. */
export function CourseGrid({ data, options, update, stale }: CourseGridProps) {
  const { videos } = data;
  const head = { options, update };
  return (
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
