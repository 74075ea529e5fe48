import { Paper, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { cueAt } from '../../contract/cues';
import type { Captions } from './captions';
import { formatClock } from './format';
import classes from './Transcript.module.css';

/** `text` with every case-insensitive match of `query` in <mark>. */
function highlight(text: string, query: string): ReactNode {
  if (!query) return text;
  const lower = text.toLowerCase();
  const parts: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(query); at !== -1; at = lower.indexOf(query, at + query.length)) {
    parts.push(text.slice(from, at), <mark key={at}>{text.slice(at, at + query.length)}</mark>);
    from = at + query.length;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * The interactive transcript: every cue with its time, the one playing highlighted and kept in
 * view, a click (or Enter) seeks there, and a search box filters and marks matches.
 */
export function Transcript({
  captions,
  mediaRef,
}: {
  captions: Captions;
  mediaRef: RefObject<HTMLVideoElement | null>;
}) {
  const [time, setTime] = useState(0);
  const [search, setSearch] = useState('');
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const video = mediaRef.current;
    if (!video) return;
    const update = () => setTime(video.currentTime);
    video.addEventListener('timeupdate', update);
    video.addEventListener('seeked', update);
    return () => {
      video.removeEventListener('timeupdate', update);
      video.removeEventListener('seeked', update);
    };
  }, [mediaRef]);

  const lines = useMemo(
    () => captions.transcript.map((cue) => ({ cue, text: cue.plain.replace(/\n/g, ' ') })),
    [captions.transcript],
  );
  const query = search.trim().toLowerCase();
  const shown = query ? lines.filter((line) => line.text.toLowerCase().includes(query)) : lines;
  const current = cueAt(captions.transcript, time);

  // Keep the current cue in view inside the list, without scrolling the page.
  useEffect(() => {
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>('[aria-current="true"]');
    if (!list || !item) return;
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 3;
    }
  }, [current]);

  if (!captions.tracks.length) return null;
  const seek = (seconds: number) => {
    const video = mediaRef.current;
    if (video) video.currentTime = seconds;
  };

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      className={classes.panel}
      component="section"
      aria-labelledby="transcript-title"
    >
      <Title order={2} size="h5" id="transcript-title">
        Transcript{captions.transcriptLabel ? ` (${captions.transcriptLabel})` : ''}
      </Title>
      <TextInput
        mt="xs"
        size="sm"
        label="Search the transcript"
        leftSection={<IconSearch size={14} aria-hidden="true" />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
      />
      <Text size="xs" c="dimmed" mt={4} aria-live="polite">
        {query ? `${shown.length} of ${lines.length} lines match` : `${lines.length} lines`}
      </Text>
      <ol ref={listRef} className={classes.list} aria-label="Transcript lines">
        {shown.map(({ cue, text }) => (
          <li key={`${cue.start}-${cue.end}-${text}`}>
            <UnstyledButton
              className={classes.line}
              aria-current={cue === current ? 'true' : undefined}
              onClick={() => seek(cue.start)}
              data-start={cue.start}
            >
              <span className={classes.time}>{formatClock(cue.start)}</span>
              <span>{highlight(text, query)}</span>
            </UnstyledButton>
          </li>
        ))}
      </ol>
    </Paper>
  );
}
