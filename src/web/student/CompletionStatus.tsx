import { Badge, Skeleton, Text } from '@mantine/core';
import { IconCircleCheckFilled, IconHelpCircle } from '@tabler/icons-react';
import { useCourseCompletion } from '../api/checkpoints';

/**
 * A course's completion on its dashboard card: complete when every lecture is (90% watched and
 * every required checkpoint passed, as the server counts it). Nothing while it loads or when it
 * cannot (the card's own progress stays).
 */
export function CourseCompletionLine({ courseId }: { courseId: string }) {
  const completion = useCourseCompletion(courseId);
  if (completion.isPending) return <Skeleton h={14} w="50%" aria-hidden="true" />;
  if (!completion.data) return null;
  const { lectures, complete } = completion.data;
  const done = lectures.filter((l) => l.complete).length;
  if (complete) return <CourseCompleteBadge variant="light" />;
  return (
    <Text size="xs" c="dimmed" data-testid="course-completion">
      {done} / {lectures.length} lectures complete (checkpoints included)
    </Text>
  );
}

/** The current lecture's checkpoints and the course's completion, beside the lecture's title. */
export function LectureCompletionBadges({ courseId, videoId }: { courseId: string; videoId: string }) {
  const completion = useCourseCompletion(courseId);
  const lecture = completion.data?.lectures.find((l) => l.videoId === videoId);
  if (!completion.data || !lecture) return null;
  return (
    <>
      {lecture.checkpointsRequired > 0 && (
        <Badge
          variant="light"
          color={lecture.checkpointsPassed >= lecture.checkpointsRequired ? 'teal' : 'yellow'}
          leftSection={<IconHelpCircle size={12} />}
          data-testid="lecture-checkpoints"
        >
          Checkpoints {lecture.checkpointsPassed} / {lecture.checkpointsRequired} passed
        </Badge>
      )}
      {lecture.complete && (
        <Badge variant="light" color="teal" leftSection={<IconCircleCheckFilled size={12} />}>
          Lecture complete
        </Badge>
      )}
      {completion.data.complete && <CourseCompleteBadge variant="filled" />}
    </>
  );
}

/** "Course complete": light on the dashboard's card, filled beside the lecture's title. */
function CourseCompleteBadge({ variant }: { variant: 'light' | 'filled' }) {
  return (
    <Badge
      variant={variant}
      color="teal"
      leftSection={<IconCircleCheckFilled size={12} />}
      data-testid="course-complete"
    >
      Course complete
    </Badge>
  );
}
