import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { formatMoment } from '../../contract/learning';
import { notesExportUrl, useCourseNotes } from '../api/learning';
import { DownloadButton } from '../ui/DownloadButton';
import { StudentTrail } from '../ui/StudentTrail';
import classes from './Learning.module.css';
import { LoadedItems } from './LoadedItems';
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
        <DownloadButton
          href={notesExportUrl(courseId)}
          size="xs"
          variant="default"
          disabled={!notes.data?.videos.length}
        >
          Export as Markdown
        </DownloadButton>
      </Group>
      <LoadedItems
        query={notes}
        placeholderHeight={60}
        failure="Could not load your notes."
        isEmpty={(data) => data.videos.length === 0}
        empty="No notes in this course yet. Add one on any lecture with the Notes tab or the N key."
      >
        {(data) =>
          data.videos.map((video) => (
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
        }
      </LoadedItems>
    </Stack>
  );
}
