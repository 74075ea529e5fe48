import { Button, CopyButton, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { ScreenTextResponse } from '../../contract/search';
import { calling, messageOf } from '../api/client';
import { formatClock } from '../player/format';
import { listen } from '../ui/listen';
import classes from './ScreenTextPanel.module.css';

/** A seek or a crossing waits this long before asking: scrubbing asks once, where it stops. */
export const SCREEN_TEXT_DEBOUNCE_MS = 400;
/** With nothing known after the moment (indexing may still be under way), ask again this often while playing. */
export const SCREEN_TEXT_RECHECK_S = 5;

/** Whether an answer still holds at `time`: inside [t, until), or a few seconds past an open-ended empty one. */
export function holdsAt(answer: Pick<ScreenTextResponse, 't' | 'until'>, time: number): boolean {
  const until = answer.until ?? answer.t + SCREEN_TEXT_RECHECK_S;
  return time >= answer.t && time < until;
}

/**
 * The moment to ask the screen text of: set from the player's time only when it leaves what the
 * last answer covers (`holds`), debounced, so a steady screen is one request, not one a frame.
 */
function useScreenMoment(
  mediaRef: RefObject<HTMLVideoElement | null>,
  holds: (time: number) => boolean,
): number {
  const [moment, setMoment] = useState(() => mediaRef.current?.currentTime ?? 0);
  const holdsRef = useRef(holds);
  holdsRef.current = holds;
  useEffect(() => {
    const video = mediaRef.current;
    if (!video) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      if (holdsRef.current(video.currentTime)) {
        clearTimeout(timer);
        timer = undefined;
        return;
      }
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (!holdsRef.current(video.currentTime)) setMoment(video.currentTime);
      }, SCREEN_TEXT_DEBOUNCE_MS);
    };
    const seeked = () => {
      clearTimeout(timer);
      timer = undefined;
      check();
    };
    const listening = new AbortController();
    listen(video, { timeupdate: check, seeked }, listening.signal);
    return () => {
      clearTimeout(timer);
      listening.abort();
    };
  }, [mediaRef]);
  return moment;
}

/**
 * Text on screen (docs/SEARCH.md): what OCR read off the picture at the moment being watched, code
 * in monospace with its indentation (a long line scrolls sideways), with a Copy button.
 */
export function ScreenTextPanel({
  videoId,
  mediaRef,
}: {
  videoId: string;
  mediaRef: RefObject<HTMLVideoElement | null>;
}) {
  const lastAnswer = useRef<ScreenTextResponse | undefined>(undefined);
  const moment = useScreenMoment(
    mediaRef,
    (time) => !!lastAnswer.current && holdsAt(lastAnswer.current, time),
  );
  // Whole tenths: two asks a moment apart share one cached answer.
  const t = Math.round(moment * 10) / 10;
  const screen = useQuery({
    queryKey: ['student', 'screen-text', videoId, t],
    queryFn: calling('GET /api/videos/:videoId/screen-text', { params: { videoId }, query: { t } }),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });
  if (screen.data && !screen.isPlaceholderData) lastAnswer.current = screen.data;

  if (screen.isPending)
    return (
      <Group gap="xs" role="status" aria-label="Reading the text on screen">
        <Loader size="xs" />
        <Text size="sm">Reading the text on screen…</Text>
      </Group>
    );
  if (screen.isError)
    return (
      <Group gap="xs" role="alert" wrap="wrap">
        <Text size="sm" c="red">
          {messageOf(screen.error, 'Could not load the text on screen.')}
        </Text>
        <Button size="compact-xs" variant="light" onClick={() => void screen.refetch()}>
          Try again
        </Button>
      </Group>
    );
  const { text } = screen.data;
  if (!text.trim())
    return (
      <Text size="sm" c="dimmed" role="status">
        No text on screen at this moment.
      </Text>
    );
  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="xs" c="dimmed">
          On screen from <span className={classes.moment}>{formatClock(screen.data.t)}</span>
        </Text>
        <CopyButton value={text} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              size="compact-sm"
              variant="light"
              color={copied ? 'teal' : undefined}
              onClick={copy}
              leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
              aria-label={copied ? 'Copied the text on screen' : 'Copy the text on screen'}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {/* A region that scrolls gets the keyboard too (tabIndex), and says what it is. */}
      <pre
        className={classes.code}
        tabIndex={0}
        aria-label="Text read from the screen"
        data-testid="screen-text"
      >
        {text}
      </pre>
    </Stack>
  );
}
