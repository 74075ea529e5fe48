import { Badge, Box, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { StudentCourse } from '../../contract/courses';
import { formatDate } from '../ui/format-date';
import { useSchoolTimeZone } from '../api/session';
import { courseLink, isCourseActive } from './course-access';
import { CourseThumbnail } from '../ui/CourseThumbnail';
import classes from './Dashboard.module.css';
import { CourseCompletionLine } from './CompletionStatus';

export interface CourseCardProps {
  course: StudentCourse;
  layout: 'grid' | 'list';
  /** Called for an expired or revoked course instead of opening it. */
  onInactive(course: StudentCourse): void;
}

/**
 * One enrolled course. Active: a link to its player (at the next unfinished video) with progress.
 * Expired or revoked: dimmed, and a button that explains why (the 'Access Expired' modal).
 */
export function CourseCard({ course, layout, onInactive }: CourseCardProps) {
  const active = isCourseActive(course, useSchoolTimeZone());
  const status = course.accessrevoked || course.access === 'revoked' ? 'Revoked' : 'Expired';
  const { total = 0, completed = 0, watchedShare = 0 } = course.progress ?? {};
  const watchedPercent = Math.round(watchedShare * 100);

  const thumb = (
    <Box className={layout === 'grid' ? classes.thumb : classes.listThumb}>
      <CourseThumbnail src={course.thumbnail} name={course.name} />
      {!active && layout === 'grid' && (
        <Badge className={classes.status} color="dark" leftSection={<IconLock size={12} />}>
          {status}
        </Badge>
      )}
    </Box>
  );

  const details = (
    <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
      <Title order={2} size={layout === 'grid' ? 'h4' : 'h5'} lineClamp={2}>
        {course.name}
      </Title>
      <Text size="sm" c="dimmed" lineClamp={3}>
        {course.description}
      </Text>
      <Group gap="xs" wrap="wrap">
        {!active && layout === 'list' && (
          <Badge color="dark" size="xs" leftSection={<IconLock size={10} />}>
            {status}
          </Badge>
        )}
        <Text size="xs" fw={600}>
          Batch: {course.batch}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDate(course.startdate)} – {formatDate(course.enddate)}
        </Text>
      </Group>
    </Stack>
  );

  const footer = active ? (
    <Stack gap={6} className={classes.footer} mt="sm">
      {total > 0 && (
        <>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              Course watched
            </Text>
            <Text size="xs" fw={600} data-testid="course-watched">
              {watchedPercent}%
            </Text>
          </Group>
          <Progress
            value={watchedPercent}
            color="teal"
            size="sm"
            aria-label={`${watchedPercent}% of the course watched`}
          />
        </>
      )}
      {total > 0 && <CourseCompletionLine courseId={course.courseId} />}
      <Group justify="space-between" wrap="nowrap">
        <Text size="xs" c="dimmed">
          {total === 0
            ? 'No videos yet'
            : completed === total
              ? `All ${total} videos completed`
              : `${completed} / ${total} videos completed`}
        </Text>
        <Text size="sm" fw={600} c="red.8" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          {completed > 0 && completed < total
            ? 'Continue'
            : completed === total && total > 0
              ? 'Watch again'
              : 'Start'}
          <IconArrowRight size={16} aria-hidden="true" />
        </Text>
      </Group>
    </Stack>
  ) : (
    <Text size="sm" c="red.8" fw={600} className={classes.footer} mt="sm">
      {status === 'Revoked' ? 'Access revoked' : 'Access expired'} · View details
    </Text>
  );

  // Card.Section must be a direct child of Card (not inside a fragment) to sit flush with the edges.
  const content =
    layout === 'grid'
      ? [
          <Card.Section key="thumb">{thumb}</Card.Section>,
          <Box key="body" mt="md" style={{ display: 'flex', flexDirection: 'column', flex: 1 }}>
            {details}
            {footer}
          </Box>,
        ]
      : [
          <Group key="body" align="flex-start" wrap="nowrap" gap="sm">
            {thumb}
            {details}
          </Group>,
          <Box key="footer">{footer}</Box>,
        ];

  if (active) {
    return (
      <Card
        withBorder
        radius="md"
        padding="md"
        component={Link}
        to={courseLink(course)}
        replace
        className={classes.card}
      >
        {content}
      </Card>
    );
  }
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="button"
      type="button"
      className={classes.card}
      data-inactive
      aria-haspopup="dialog"
      onClick={() => onInactive(course)}
    >
      {content}
    </Card>
  );
}
