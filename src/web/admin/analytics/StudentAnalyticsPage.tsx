import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Anchor, Badge, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { StudentAnalytics, StudentCourseActivity } from '../../../contract/analytics';
import { analyticsCsv, useStudentAnalytics } from '../../api/analytics';
import { Empty } from '../ui/Empty';
import { formatDateTime, formatDMY } from '../ui/format';
import { PageHeader } from '../ui/PageHeader';
import { analyticsPage } from './analytics-page';
import { ChartFigure, ChartPanel } from './ChartPanel';
import { ChartTable, FiguresTable } from './ChartTable';
import { DownloadCsv } from '../ui/DownloadCsv';
import { ago, percent, watchTime } from './format';
import { StatCard } from './StatCard';
import { AnalyticsLink } from './AnalyticsLink';
import { plural } from '../../../contract/plural';

/** /adminanalytics/student/{id}: what one student watched, course by course and day by day. */
export default analyticsPage('studentId', useStudentAnalytics, StudentView, {
  loading: 'Loading student analytics',
  cards: 4,
  chartHeight: 240,
});

const shortDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

function StudentView({ analytics: a }: { analytics: StudentAnalytics }) {
  const week = a.days.slice(-7).reduce((sum, d) => sum + d.seconds, 0);
  const month = a.days.reduce((sum, d) => sum + d.seconds, 0);
  const activeDays = a.days.filter((d) => d.seconds > 0).length;
  const data = a.days.map((d) => ({ day: shortDay(d.day), minutes: Math.round(d.seconds / 6) / 10 }));
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/adminstudents" replace size="sm">
        ← Manage Students
      </Anchor>
      <PageHeader
        title={a.student.name}
        description={`${a.student.rollno} · ${a.student.email}`}
        actions={<DownloadCsv href={analyticsCsv.student(a.student._id)} />}
      />
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <StatCard label="Last 7 days" value={watchTime(week)} hint="of video played" />
        <StatCard label="Last 30 days" value={watchTime(month)} hint={`on ${plural(activeDays, 'day')}`} />
        <StatCard
          label="Courses"
          value={a.courses.length}
          hint={`${a.courses.filter((c) => c.atRisk).length} at risk`}
        />
        <StatCard
          label="Videos completed"
          value={a.courses.reduce((sum, c) => sum + c.videosCompleted, 0)}
          hint={`of ${a.courses.reduce((sum, c) => sum + c.totalVideos, 0)}`}
        />
      </SimpleGrid>
      <ChartPanel name="days" title="Watch time, last 30 days" note={<>minutes per day ({a.timeZone})</>}>
        {month === 0 ? (
          <Text c="dimmed" size="sm" py="lg" ta="center">
            Nothing watched in the last 30 days.
          </Text>
        ) : (
          <ChartFigure name="days">
            <BarChart
              h={220}
              data={data}
              dataKey="day"
              series={[{ name: 'minutes', label: 'Minutes', color: 'red.6' }]}
              gridAxis="y"
              tickLine="none"
              xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
            />
          </ChartFigure>
        )}
        <Text size="xs" c="dimmed" id="days-summary" mt="xs">
          {watchTime(week)} in the last 7 days, {watchTime(month)} in the last 30.
        </Text>
        <ChartTable label="Days as a table">
          <FiguresTable
            rows={[...a.days].reverse()}
            rowKey={(d) => d.day}
            columns={[
              { head: 'Day', cell: (d) => formatDMY(d.day) },
              { head: 'Watch time', cell: (d) => watchTime(d.seconds), right: true },
            ]}
          />
        </ChartTable>
      </ChartPanel>
      {a.courses.length === 0 ? (
        <Empty title="Not enrolled in any course." description="Enrol the student from Manage Students." />
      ) : (
        a.courses.map((course) => <CourseActivity key={course._id} course={course} />)
      )}
    </Stack>
  );
}

const ACCESS_COLORS: Record<StudentCourseActivity['access'], string> = {
  active: 'teal',
  expired: 'gray',
  revoked: 'red',
};

function CourseActivity({ course: c }: { course: StudentCourseActivity }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} component="section" aria-label={c.name}>
      <Group justify="space-between" align="flex-start" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Title order={2} size="h4">
            <AnalyticsLink subject="course" id={c._id} inherit>
              {c.name}
            </AnalyticsLink>
          </Title>
          <Text size="xs" c="dimmed">
            Batch {c.batch} · {c.coursecode} · access until {formatDMY(c.accessexpiration)}
          </Text>
        </div>
        <Group gap={6}>
          {c.atRisk && (
            <Badge color="orange" variant="light">
              At risk
            </Badge>
          )}
          <Badge color={ACCESS_COLORS[c.access]} variant="outline">
            {c.access}
          </Badge>
        </Group>
      </Group>
      <Group gap="lg" mt="sm" wrap="wrap">
        <Text size="sm">
          <b>{percent(c.watchedShare)}</b> watched
        </Text>
        <Text size="sm">
          <b>
            {c.videosStarted} / {c.totalVideos}
          </b>{' '}
          started · <b>{c.videosCompleted}</b> completed
        </Text>
        <Text size="sm">
          <b>{watchTime(c.watchSeconds)}</b> played
        </Text>
        <Text size="sm" title={c.lastActivity ?? undefined}>
          last active <b>{ago(c.lastActivity)}</b>
        </Text>
      </Group>
      <Progress
        value={c.watchedShare * 100}
        color="teal"
        size="sm"
        mt="xs"
        aria-label={`${percent(c.watchedShare)} of ${c.name} watched`}
      />
      {c.videos.length > 0 && (
        <Table.ScrollContainer minWidth={560} mt="sm">
          <Table verticalSpacing={4} fz="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Video</Table.Th>
                <Table.Th ta="right">Watched</Table.Th>
                <Table.Th ta="right">Last 7 days</Table.Th>
                <Table.Th>Last watched</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {c.videos.map((v, i) => (
                <Table.Tr key={v._id}>
                  <Table.Td>
                    <AnalyticsLink subject="video" id={v._id} size="sm">
                      {i + 1}. {v.title}
                    </AnalyticsLink>
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {v.completed && (
                      <IconCheck
                        size={14}
                        color="var(--mantine-color-teal-7)"
                        aria-label="Completed"
                        role="img"
                      />
                    )}{' '}
                    {percent(v.share)}
                  </Table.Td>
                  <Table.Td ta="right">{v.weekSeconds ? watchTime(v.weekSeconds) : '—'}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {v.lastWatched ? formatDateTime(v.lastWatched) : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
