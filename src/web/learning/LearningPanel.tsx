import { Anchor, Badge, Group, Loader, Paper, Tabs } from '@mantine/core';
import { IconMessageQuestion, IconNotes, IconTextScan2 } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState, type ReactNode, type RefObject } from 'react';
import { Link, useParams } from 'react-router';
import { useQuestions } from '../api/learning';
import { NotesTab } from './NotesTab';
import classes from './Learning.module.css';
import { ownsKeys } from './moment';

// The tabs behind a tap load their code when first opened.
const QuestionsTab = lazy(() => import('./QuestionsTab').then((m) => ({ default: m.QuestionsTab })));
const ScreenTextPanel = lazy(() =>
  import('../search/ScreenTextPanel').then((m) => ({ default: m.ScreenTextPanel })),
);

/** A tab's content, with a spinner while its code arrives. */
const Loaded = ({ children }: { children: ReactNode }) => (
  <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>{children}</Suspense>
);

/**
 * Below the player: the student's notes at moments of this lecture (add with the button or key N,
 * the player pauses while they type) and the lecture's questions (ask at this moment, me too, read
 * answers), and the text on screen at the moment being watched (OCR, to read or copy the code
 * shown). A click on a moment seeks there.
 */
export function LearningPanel({
  videoId,
  mediaRef,
}: {
  videoId: string;
  mediaRef: RefObject<HTMLVideoElement | null>;
}) {
  const { courseId = '' } = useParams();
  const [tab, setTab] = useState<string | null>('notes');
  const [noteRequest, setNoteRequest] = useState(0);
  const questions = useQuestions(videoId);
  const unread = (questions.data ?? []).reduce((sum, q) => sum + q.unread, 0);

  // N (with nothing focused that takes keys) adds a note at the current moment.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
      if (event.key !== 'n' && event.key !== 'N') return;
      if (ownsKeys(event.target)) return;
      event.preventDefault();
      setTab('notes');
      setNoteRequest((n) => n + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <Paper withBorder radius="md" p="sm">
      <Tabs
        value={tab}
        onChange={setTab}
        keepMounted={false}
        classNames={{ list: classes.tabList, tab: classes.tab, tabSection: classes.tabSection }}
      >
        {/* The tab list holds tabs only (ARIA tablist); the link to all notes sits beside it. */}
        <Group justify="space-between" align="flex-end" wrap="nowrap" gap="xs">
          <Tabs.List style={{ flex: 1, minWidth: 0 }}>
            <Tabs.Tab value="notes" leftSection={<IconNotes size={16} />}>
              Notes
            </Tabs.Tab>
            <Tabs.Tab
              value="questions"
              leftSection={<IconMessageQuestion size={16} />}
              rightSection={
                unread > 0 ? (
                  <Badge size="xs" color="red" circle aria-label={`${unread} unread answers`}>
                    {unread}
                  </Badge>
                ) : null
              }
            >
              Questions
            </Tabs.Tab>
            <Tabs.Tab value="screen" leftSection={<IconTextScan2 size={16} />}>
              Text on screen
            </Tabs.Tab>
          </Tabs.List>
          {courseId && (
            <Anchor component={Link} to={`/course/${courseId}/notes`} size="sm" mb={8} mr={4}>
              My notes
            </Anchor>
          )}
        </Group>
        <Tabs.Panel value="notes" pt="sm">
          <NotesTab videoId={videoId} mediaRef={mediaRef} openRequest={noteRequest} />
        </Tabs.Panel>
        <Tabs.Panel value="questions" pt="sm">
          <Loaded>
            <QuestionsTab videoId={videoId} mediaRef={mediaRef} questions={questions} />
          </Loaded>
        </Tabs.Panel>
        <Tabs.Panel value="screen" pt="sm">
          <Loaded>
            <ScreenTextPanel videoId={videoId} mediaRef={mediaRef} />
          </Loaded>
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
