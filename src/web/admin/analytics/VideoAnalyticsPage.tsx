import '@mantine/charts/styles.css';
import { CompositeChart } from '@mantine/charts';
import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { VideoAnalytics } from '../../../contract/analytics';
import { analyticsCsv, useVideoAnalytics } from '../../api/analytics';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { analyticsPage } from './analytics-page';
import { ChartFigure, ChartPanel } from './ChartPanel';
import { ChartTable, FiguresTable } from './ChartTable';
import { CheckpointsTable, passRate } from './CheckpointsTable';
import { DownloadCsv } from '../ui/DownloadCsv';
import { at, percent } from './format';
import { StatCard } from './StatCard';
import { AnalyticsLink } from './AnalyticsLink';
import { plural } from '../../../contract/plural';

/** /adminanalytics/video/{id}: where a lecture loses people. */
export default analyticsPage('videoId', useVideoAnalytics, VideoView, {
  loading: 'Loading video analytics',
  cards: 5,
  chartHeight: 300,
});

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
  // Each checkpoint: a dashed line at the step that holds its moment, with its pass rate.
  const lastStart = a.buckets.at(-1)?.start ?? 0;
  const stepOf = (t: number) => Math.min(Math.floor(t / a.bucketSeconds) * a.bucketSeconds, lastStart);
  const checkpointLines = a.checkpoints.map((c) => ({
    x: at(stepOf(c.t)),
    color: 'teal.8',
    strokeDasharray: '3 3',
    label: `✓ ${passRate(c)}`,
    labelPosition: 'insideTopLeft' as const,
  }));
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
              ? `${plural(drop.lost, 'viewer')} stop here`
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
              referenceLines={checkpointLines}
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
            {a.checkpoints.length > 0 &&
              ` Dashed lines are the ${plural(a.checkpoints.length, 'checkpoint')}, marked with the share of those who answered that passed.`}
          </Text>
          <ChartTable label="Retention as a table">
            <FiguresTable
              stickyHeader
              rows={a.buckets}
              rowKey={(b) => b.start}
              columns={[
                { head: 'From', cell: (b) => at(b.start), mono: true },
                { head: 'Viewers', cell: (b) => b.viewers, right: true },
                {
                  head: 'Share of students',
                  cell: (b) => (a.studentsWithAccess ? percent(b.viewers / a.studentsWithAccess) : '—'),
                  right: true,
                },
                { head: 'Plays', cell: (b) => b.plays, right: true },
              ]}
            />
          </ChartTable>
          <ChartTable label="Questions as a table">
            {lost.length === 0 ? (
              <Text size="sm" c="dimmed">
                No questions were asked on this video yet.
              </Text>
            ) : (
              <FiguresTable
                stickyHeader
                rows={lost}
                rowKey={(q) => q.start}
                columns={[
                  { head: 'Moment', cell: (q) => span(q.start), mono: true },
                  { head: 'Questions asked', cell: (q) => q.questions, right: true },
                ]}
              />
            )}
          </ChartTable>
          {a.checkpoints.length > 0 && <CheckpointsTable checkpoints={a.checkpoints} />}
        </ChartPanel>
      )}
    </Stack>
  );
}
