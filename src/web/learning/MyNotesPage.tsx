import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { formatMoment } from '../../contract/learning';
import { messageOf } from '../api/client';
import { notesExportUrl, useCourseNotes } from '../api/learning';
import { StudentTrail } from '../ui/StudentTrail';
import classes from './Learning.module.css';
import { Markup } from './Markup';

/** /course/:courseId/notes: the student's notes of every lecture of a course, and the Markdown export. */
export default function MyNotesPage() {
  const { courseId = '' } = useParams();
  const notes = useCourseNotes(courseId);
  const name = notes.data?.course.name ?? 'Course';
  return (
    <Stack gap="md">
      <StudentTrail links={[{ to: `/course/${courseId}`, label: name }]} here="My notes" />
      <Group justify="space-between">
        <Title order={1} size="h3">
          My notes
        </Title>
        <Button
          component="a"
          href={notesExportUrl(courseId)}
          download
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} />}
          disabled={!notes.data?.videos.length}
        >
          Export as Markdown
        </Button>
      </Group>
      {notes.isPending ? (
        <Stack aria-busy="true">
          <Skeleton h={60} />
          <Skeleton h={60} />
          <Skeleton h={60} />
        </Stack>
      ) : notes.isError ? (
        <Text c="red">{messageOf(notes.error, 'Could not load your notes.')}</Text>
      ) : notes.data.videos.length === 0 ? (
        <Text c="dimmed">
          No notes in this course yet. Add one on any lecture with the Notes tab or the N key.
        </Text>
      ) : (
        notes.data.videos.map((video) => (
          <Paper key={video._id} withBorder radius="md" p="sm">
            <Title order={2} size="h5" mb="xs">
              <Anchor component={Link} to={`/course/${courseId}?video=${video._id}`} replace>
                {video.title}
              </Anchor>
            </Title>
            <ul className={classes.list} style={{ maxHeight: 'none' }}>
              {video.notes.map((note) => (
                <li key={note._id} className={classes.item}>
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    <Text size="sm" className={classes.moment} c="blue">
                      {formatMoment(note.t)}
                    </Text>
                    <div style={{ flex: 1, minWidth: 0 }}>
                      <Markup text={note.text} />
                    </div>
                  </Group>
                </li>
              ))}
            </ul>
          </Paper>
        ))
      )}
    </Stack>
  );
}
