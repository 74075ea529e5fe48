import { Anchor, Badge, Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheckFilled, IconClock, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { openingVideoIndex } from '../../contract/opening-video';
import { messageOf } from '../api/client';
import { studentKeys, useCourses, useCourseVideos, useProgressCache, useRollno } from '../api/student';
import { formatClock, parseDuration } from '../player/format';
import { PLAY_MARK } from '../player/renderer';
import { watermarkText } from '../player/watermark';
import { afterPageSettles } from '../ui/after-load';
import { StudentTrail } from '../ui/StudentTrail';
import classes from './Course.module.css';
import { SearchBox } from '../search/SearchBox';
import { hitFromParam, startFromParam } from '../search/snippet';
import { LectureCompletionBadges } from './CompletionStatus';
import { LiveClasses } from './LiveClasses';
import { PlayNextCard } from './PlayNextCard';
import { Playlist } from './Playlist';
import { resumePosition } from './use-watch-progress';

// The player is its own chunk: the page opens on the intro poster, and the player's code loads
// once the page has settled (or at the click on the poster, if that comes first).
const loadPlayer = () => import('./WatchedVideo').then((m) => ({ default: m.WatchedVideo }));
const WatchedVideo = lazy(loadPlayer);

/**
 * The poster of the video the page opens with: its largest paint, fetched first (the server also
 * preloads it), 16:9 before it arrives.
 */
const Poster = ({ src }: { src: string }) => (
  <img src={src} alt="" width={1280} height={720} fetchPriority="high" />
);

/** /course/:courseId: the watermarked player, the current video's details, Play Next and the playlist. */
export default function CoursePage() {
  const { courseId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const videosQuery = useCourseVideos(courseId);
  const rollno = useRollno(courseId);
  const courses = useCourses();
  const updateProgress = useProgressCache(courseId);
  const queryClient = useQueryClient();
  // A lecture picked before the list has it (a class that has just gone live): the list is asked
  // again and the page waits for it, rather than start the first lecture and switch a moment later
  // (a second start a browser may refuse to play without a gesture of its own).
  const [awaitedVideo, setAwaitedVideo] = useState<string | null>(null);
  // Intro thumbnail first; a pick from the playlist or Play Next starts playing at once.
  const [playing, setPlaying] = useState(false);
  // A search hit (`?video=ID&t=SECONDS`) plays from two seconds before it, each time one is
  // followed: a click on the hit the address already names is a navigation of its own (its key).
  const hitAt = startFromParam(params.get('t'));
  const hitSecond = hitFromParam(params.get('t'));
  const { key: navigation } = useLocation();
  const hitVisit = hitAt === undefined ? '' : `${hitAt}@${navigation}`;
  useEffect(() => {
    if (hitAt !== undefined) setPlaying(true);
  }, [hitAt, params]);
  useEffect(() => afterPageSettles(() => void loadPlayer()), []);

  // Load errors give an empty list (SPEC.md section 8).
  const videos = videosQuery.data ?? [];
  const index = openingVideoIndex(videos, params.get('video'));
  const current = videos[index];
  const next = videos[index + 1];
  const courseName = courses.data?.find((c) => c.courseId === courseId)?.name;
  // 'Confidential' until (and unless) the roll number loads.
  const watermark = watermarkText(rollno.data);

  const start = () => {
    performance.mark(PLAY_MARK);
    setPlaying(true);
  };

  const select = (videoId: string) => {
    performance.mark(PLAY_MARK);
    setParams({ video: videoId }, { replace: true });
    setPlaying(true);
    window.scrollTo({ top: 0, behavior: 'smooth' });
    if (!videos.some((v) => v._id === videoId)) {
      setAwaitedVideo(videoId);
      void queryClient
        .invalidateQueries({ queryKey: studentKeys.videos(courseId) })
        .finally(() => setAwaitedVideo((awaited) => (awaited === videoId ? null : awaited)));
    }
  };

  let main;
  if (videosQuery.isPending || awaitedVideo) {
    main = (
      <Stack aria-busy="true" aria-label="Loading the course">
        <Skeleton style={{ aspectRatio: '16 / 9' }} radius="md" />
        <Skeleton h={24} w="60%" />
        <Skeleton h={12} w="30%" />
        <Skeleton h={12} />
      </Stack>
    );
  } else if (!current) {
    main = (
      <Stack align="center" py={48} gap="xs" ta="center">
        <Text fw={600}>No videos found or accessible for this account</Text>
        {videosQuery.isError && (
          <Text size="sm" c="dimmed">
            {messageOf(videosQuery.error, 'The videos could not be loaded.')}
          </Text>
        )}
        <Anchor component={Link} to="/dashboard" replace size="sm">
          Back to your courses
        </Anchor>
      </Stack>
    );
  } else {
    const length = parseDuration(current.duration);
    const resumeAt = resumePosition(current.progress, length);
    main = (
      <Stack gap="md">
        {playing ? (
          <Suspense
            fallback={
              <div className={classes.intro} role="status" aria-label="Loading the player">
                <Poster src={current.thumbnail} />
              </div>
            }
          >
            <WatchedVideo
              key={`${current._id}@${hitVisit}`}
              video={current}
              startAt={hitAt}
              hitAt={hitSecond}
              watermark={watermark}
              autoPlay
              onSaved={updateProgress}
              courseId={courseId}
            />
          </Suspense>
        ) : (
          <button
            type="button"
            className={classes.intro}
            onClick={start}
            // The name holds the words shown on the poster (WCAG 2.5.3): "Resume from 02:05".
            aria-label={`Play ${current.title}${resumeAt ? `: resume from ${formatClock(resumeAt)}` : ''}`}
          >
            <Poster src={current.thumbnail} />
            <span className={classes.introPlay}>
              <span className={classes.introButton}>
                <IconPlayerPlayFilled size={36} />
              </span>
              {resumeAt > 0 && <Text fw={600}>Resume from {formatClock(resumeAt)}</Text>}
            </span>
          </button>
        )}
        <div>
          <Title order={1} size="h3">
            {current.title}
          </Title>
          <Group gap="xs" mt={6}>
            <Badge variant="light" color="gray" leftSection={<IconClock size={12} />}>
              {current.duration}
            </Badge>
            {current.progress?.completed && (
              <Badge variant="light" color="teal" leftSection={<IconCircleCheckFilled size={12} />}>
                Completed
              </Badge>
            )}
            <LectureCompletionBadges courseId={courseId} videoId={current._id} />
          </Group>
        </div>
        {current.description && (
          <Text style={{ whiteSpace: 'pre-line' }} c="dark.4">
            {current.description}
          </Text>
        )}
        {next && <PlayNextCard video={next} onPlay={() => select(next._id)} />}
      </Stack>
    );
  }

  const showPlaylist = videosQuery.isPending || videos.length > 0;
  return (
    <Stack gap="md">
      <StudentTrail here={courseName ?? 'Course'} lineClamp={1} />
      <SearchBox courseId={courseId} />
      <LiveClasses courseId={courseId} onWatch={select} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: showPlaylist ? 8 : 12 }}>{main}</Grid.Col>
        {showPlaylist && (
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Playlist
              videos={videos}
              currentId={current?._id}
              loading={videosQuery.isPending}
              onSelect={select}
            />
          </Grid.Col>
        )}
      </Grid>
    </Stack>
  );
}
