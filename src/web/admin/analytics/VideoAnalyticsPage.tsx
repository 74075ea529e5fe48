import '@mantine/charts/styles.css';
import { CompositeChart } from '@mantine/charts';
import { SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useParams } from 'react-router';
import type { VideoAnalytics } from '../../../contract/analytics';
import { analyticsCsv, useVideoAnalytics } from '../../api/analytics';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { AnalyticsLoaded } from './AnalyticsLoaded';
import { ChartFigure, ChartPanel } from './ChartPanel';
import { ChartTable } from './ChartTable';
import { DownloadCsv } from './DownloadCsv';
import { at, percent } from './format';
import { StatCard } from './StatCard';
import { AnalyticsLink } from './AnalyticsLink';

/** /adminanalytics/video/{id}: where a lecture loses people. */
export default function VideoAnalyticsPage() {
  const { videoId = '' } = useParams();
  const analytics = useVideoAnalytics(videoId);
  return (
    <AnalyticsLoaded query={analytics} loading="Loading video analytics" cards={5} chartHeight={300}>
      {(a) => <VideoView analytics={a} />}
    </AnalyticsLoaded>
  );
}

function VideoView({ analytics: a }: { analytics: VideoAnalytics }) {
  const { video } = a;
  // Questions per question bucket, drawn as one bar over the middle of its bucket (the retention
  // point there, else the bucket's start when the video ends sooner).
  const asked = new Map<number, number>();
  for (const q of a.questionBuckets) {
    const middle = q.start + a.questionBucketSeconds / 2;
    const where = a.buckets.some((b) => b.start === middle) ? middle : q.start;
    asked.set(where, (asked.get(where) ?? 0) + q.questions);
  }
  const points = a.buckets.map((b) => ({
    at: at(b.start),
    viewers: b.viewers,
    plays: b.plays,
    questions: asked.get(b.start) ?? 0,
  }));
  // The steps are drawn from each bucket's start: a closing point gives the last bucket its width.
  const last = points.at(-1);
  const data = last ? [...points, { ...last, at: at(video.durationSeconds), questions: 0 }] : points;
  const drop = a.biggestDropOff;
  const questionCount = a.questionBuckets.reduce((sum, q) => sum + q.questions, 0);
  const lost = a.questionBuckets.filter((q) => q.questions > 0);
  const most = lost.reduce<(typeof lost)[number] | undefined>(
    (best, q) => (!best || q.questions > best.questions ? q : best),
    undefined,
  );
  const span = (start: number) =>
    `${at(start)}–${at(Math.min(start + a.questionBucketSeconds, video.durationSeconds))}`;
  return (
    <Stack gap="lg">
      {video.course && (
        <AnalyticsLink subject="course" id={video.course._id} size="sm">
          ← {video.course.name} (Batch {video.course.batch}) analytics
        </AnalyticsLink>
      )}
      <PageHeader
        title={video.title}
        description={`Retention over ${at(video.durationSeconds)}, in ${a.bucketSeconds}-second steps${video.course ? ` · ${video.course.name}` : ''}`}
        actions={<DownloadCsv href={analyticsCsv.video(video._id)} />}
      />
      <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
        <StatCard label="With access" value={a.studentsWithAccess} hint="active course access and a grant" />
        <StatCard label="Viewers" value={a.viewers} hint="played any of it" />
        <StatCard
          label="Completed"
          value={percent(a.completionRate)}
          hint={`${a.completed} of ${a.studentsWithAccess} watched 90%`}
        />
        <StatCard
          label="Median watched"
          value={percent(a.medianShareWatched)}
          hint="of the video, per student"
        />
        <StatCard
          label="Biggest drop-off"
          value={drop ? at(drop.start) : '—'}
          hint={
            drop
              ? `${drop.lost} viewer${drop.lost === 1 ? '' : 's'} stop here`
              : a.viewers
                ? 'nobody stopped early'
                : 'no viewers yet'
          }
        />
      </SimpleGrid>
      {a.viewers === 0 && questionCount === 0 ? (
        <Empty
          title="Nobody has watched this video yet."
          description="The retention curve appears once students with access start playing it."
        />
      ) : (
        <ChartPanel
          name="retention"
          title="Viewers through the video"
          note={<>of {a.studentsWithAccess} with access</>}
        >
          <ChartFigure name="retention">
            <CompositeChart
              h={300}
              data={data}
              dataKey="at"
              series={[
                { name: 'plays', label: 'Plays', color: 'gray.5', type: 'area', strokeDasharray: '5 4' },
                { name: 'viewers', label: 'Viewers', color: 'red.6', type: 'area' },
                {
                  name: 'questions',
                  label: `Questions (per ${a.questionBucketSeconds} s)`,
                  color: 'indigo.6',
                  type: 'bar',
                  yAxisId: 'right',
                },
              ]}
              curveType="stepAfter"
              withDots={false}
              withLegend
              withRightYAxis
              yAxisLabel="Students"
              rightYAxisLabel="Questions"
              rightYAxisProps={{ allowDecimals: false }}
              gridAxis="y"
              areaProps={{ fillOpacity: 0.15 }}
              maxBarWidth={28}
              composedChartProps={{ barCategoryGap: '5%' }}
            />
          </ChartFigure>
          <Text size="xs" c="dimmed" id="retention-summary" mt="xs">
            {drop
              ? `The most viewers, ${drop.lost}, stop watching at ${at(drop.start)}.`
              : 'No viewer stopped before the end.'}{' '}
            Plays count rewatching: 2 means the part was played twice over.{' '}
            {most
              ? `Bars are questions students asked there, ${questionCount} in all; the most, ${most.questions}, at ${span(most.start)}.`
              : 'No questions were asked on this video yet.'}
          </Text>
          <ChartTable label="Retention as a table">
            <Table striped stickyHeader verticalSpacing={4} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>From</Table.Th>
                  <Table.Th ta="right">Viewers</Table.Th>
                  <Table.Th ta="right">Share of students</Table.Th>
                  <Table.Th ta="right">Plays</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {a.buckets.map((b) => (
                  <Table.Tr key={b.start}>
                    <Table.Td ff="monospace">{at(b.start)}</Table.Td>
                    <Table.Td ta="right">{b.viewers}</Table.Td>
                    <Table.Td ta="right">
                      {a.studentsWithAccess ? percent(b.viewers / a.studentsWithAccess) : '—'}
                    </Table.Td>
                    <Table.Td ta="right">{b.plays}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ChartTable>
          <ChartTable label="Questions as a table">
            {lost.length === 0 ? (
              <Text size="sm" c="dimmed">
                No questions were asked on this video yet.
              </Text>
            ) : (
              <Table striped stickyHeader verticalSpacing={4} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Moment</Table.Th>
                    <Table.Th ta="right">Questions asked</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {lost.map((q) => (
                    <Table.Tr key={q.start}>
                      <Table.Td ff="monospace">{span(q.start)}</Table.Td>
                      <Table.Td ta="right">{q.questions}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </ChartTable>
        </ChartPanel>
      )}
    </Stack>
  );
}
