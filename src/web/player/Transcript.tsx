import { Paper, Text, Title, UnstyledButton } from '@mantine/core';
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { cueAt } from '../../contract/cues';
import { matchSpans } from '../../contract/text-matches';
import { SearchInput } from '../ui/SearchInput';
import type { Captions } from './captions';
import { formatClock } from './format';
import classes from './Transcript.module.css';

/** `text` with every case-insensitive match of `query` in <mark>. */
function highlight(text: string, query: string): ReactNode {
  if (!query) return text;
  const parts: ReactNode[] = [];
  let from = 0;
  for (const [start, end] of matchSpans(text, [query])) {
    parts.push(text.slice(from, start), <mark key={start}>{text.slice(start, end)}</mark>);
    from = end;
  }
  parts.push(text.slice(from));
  return parts;
}

/** Slack for where a seek lands: a little before the second the player was asked to start at. */
const SEEK_SLACK_SECONDS = 0.5;

const reducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * The interactive transcript: every cue with its time, the one playing highlighted and kept in
 * view, a click (or Enter) seeks there, and a search box filters and marks matches. Opened at a
 * search hit (`focus`), the cue in force at that second is marked current and centred in the
 * list once the captions load, and stays current through the player's lead-in before it.
 */
export function Transcript({
  captions,
  mediaRef,
  focus,
}: {
  captions: Captions;
  mediaRef: RefObject<HTMLVideoElement | null>;
  /**
   * A search hit: its second (`?t=`), whose cue is brought into view once, and where the player
   * starts (a little before it).
   */
  focus?: { at: number; playFrom: number };
}) {
  const { transcript } = captions;
  const focusAt = focus?.at;
  const playFrom = focus?.playFrom ?? 0;
  const [time, setTime] = useState(focusAt ?? 0);
  const [search, setSearch] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  // The hit's cue not yet brought into view; the hit's second held while the player is before it.
  const focusPending = useRef(focusAt !== undefined);
  const pinned = useRef(focusAt);

  useEffect(() => {
    const video = mediaRef.current;
    if (!video) return;
    const update = () => {
      const at = pinned.current;
      // Not started yet, or in the lead-in before the hit: the hit's cue stays current.
      const held =
        at !== undefined &&
        video.currentTime < at &&
        (video.currentTime >= playFrom - SEEK_SLACK_SECONDS || (video.paused && video.currentTime === 0));
      if (held) return;
      pinned.current = undefined;
      // Only a change of line re-renders the list: timeupdate fires 4 times a second.
      const now = video.currentTime;
      setTime((shown) => (cueAt(transcript, shown) === cueAt(transcript, now) ? shown : now));
    };
    video.addEventListener('timeupdate', update);
    video.addEventListener('seeked', update);
    return () => {
      video.removeEventListener('timeupdate', update);
      video.removeEventListener('seeked', update);
    };
  }, [mediaRef, playFrom, transcript]);

  const lines = useMemo(
    () => transcript.map((cue) => ({ cue, text: cue.plain.replace(/\n/g, ' ') })),
    [transcript],
  );
  const query = search.trim().toLowerCase();
  const shown = query ? lines.filter((line) => line.text.toLowerCase().includes(query)) : lines;
  const current = cueAt(transcript, time);

  // Keep the current cue in view inside the list, without scrolling the page (the player stays
  // where it is). A search hit's cue, once its lines are there, goes to the middle of the list
  // (smoothly unless the viewer asks for reduced motion); with no cue in force at that second, the
  // next one does.
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const playing = list.querySelector<HTMLElement>('[aria-current="true"]');
    if (focusPending.current && focusAt !== undefined) {
      const item =
        playing ??
        [...list.querySelectorAll<HTMLElement>('[data-start]')].find(
          (el) => Number(el.dataset.start) > focusAt,
        );
      if (!item) return;
      focusPending.current = false;
      const top = Math.max(0, item.offsetTop - list.offsetTop - (list.clientHeight - item.offsetHeight) / 2);
      if (typeof list.scrollTo === 'function')
        list.scrollTo({ top, behavior: reducedMotion() ? 'auto' : 'smooth' });
      else list.scrollTop = top;
      return;
    }
    if (!playing) return;
    const top = playing.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + playing.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 3;
    }
  }, [current, lines, focusAt]);

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
      <SearchInput mt="xs" label="Search the transcript" showLabel value={search} onChange={setSearch} />
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
