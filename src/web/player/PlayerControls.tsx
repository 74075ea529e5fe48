import { ActionIcon, Box, Group, Menu, Slider, Text, UnstyledButton } from '@mantine/core';
import {
  IconBadgeCc,
  IconBadgeCcFilled,
  IconCheck,
  IconMaximize,
  IconMinimize,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useState, type ReactNode, type RefObject } from 'react';
import type { Captions } from './captions';
import { formatClock } from './format';
import type { MediaActions } from './media-actions';
import classes from './Player.module.css';
import { useCurrentTime, type MediaState } from './use-media-state';

/** A point marked on the seek bar (a note, a question): where, and what it is for screen readers. */
export interface SeekMarker {
  seconds: number;
  /** The marker's accessible name and tooltip, e.g. "Question at 01:05: Why?". */
  label: string;
  /** Drawn apart: a note is a square, a question a round pin; 'other' by default. */
  kind?: 'note' | 'question' | 'other';
}

export interface PlayerControlsProps {
  media: MediaState;
  /** The <video>, whose position the seek bar and the clock follow (useCurrentTime). */
  videoRef: RefObject<HTMLVideoElement | null>;
  duration: number;
  fullscreen: boolean;
  visible: boolean;
  /** What the buttons and sliders do to the video: the same actions as the keys (media-actions.ts). */
  actions: Pick<MediaActions, 'togglePlay' | 'seekTo' | 'toggleMute' | 'setVolume' | 'cycleSpeed'>;
  onToggleFullscreen(): void;
  onFocusChange(inside: boolean): void;
  captions?: Captions;
  /** Points marked on the seek bar; nothing is drawn for none. */
  markers?: readonly SeekMarker[];
}

/** A button of the control bar: white on the video, one size for all. */
function BarButton(props: { label: string; pressed?: boolean; onClick(): void; children: ReactNode }) {
  return (
    <ActionIcon
      variant="subtle"
      color="white"
      size="lg"
      onClick={props.onClick}
      aria-label={props.label}
      aria-pressed={props.pressed}
    >
      {props.children}
    </ActionIcon>
  );
}

/** CC: a menu of the video's caption languages and Off (C toggles without it). */
function CaptionsMenu({ captions }: { captions: Captions }) {
  const current = captions.tracks.find((t) => t.language === captions.language);
  const choices = [{ language: null, label: 'Off' }, ...captions.tracks];
  return (
    <Menu position="top-end" withinPortal={false} shadow="md">
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="white"
          size="lg"
          aria-label={
            current ? `Captions: ${current.label}. Change captions` : 'Captions off. Change captions'
          }
          data-testid="captions-button"
        >
          {current ? <IconBadgeCcFilled size={24} /> : <IconBadgeCc size={24} />}
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Captions</Menu.Label>
        {choices.map((choice) => (
          <Menu.Item
            key={choice.language ?? 'off'}
            onClick={() => captions.choose(choice.language)}
            leftSection={
              <IconCheck
                size={14}
                style={{ opacity: choice.language === captions.language ? 1 : 0 }}
                aria-hidden="true"
              />
            }
            aria-current={choice.language === captions.language || undefined}
          >
            {choice.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The markers above the seek bar's track: each a small button (a tab stop with its own name) that
 * seeks to its moment. The row is inset like the slider's track, so a marker sits over its second.
 */
function SeekMarkers(props: { markers: readonly SeekMarker[]; span: number; onSeek(seconds: number): void }) {
  return (
    <div className={classes.markers} role="group" aria-label="Moments marked on the timeline">
      {props.markers.map((marker, i) => (
        <button
          key={`${marker.kind ?? 'other'}-${marker.seconds}-${i}`}
          type="button"
          className={classes.marker}
          data-kind={marker.kind ?? 'other'}
          style={{ left: `${(Math.min(Math.max(marker.seconds, 0), props.span) / props.span) * 100}%` }}
          aria-label={marker.label}
          title={marker.label}
          onClick={() => props.onSeek(marker.seconds)}
        >
          <span aria-hidden="true" />
        </button>
      ))}
    </div>
  );
}

/** Where the bar and the clock are: the thumb being dragged, or the video's position. */
function usePosition(videoRef: RefObject<HTMLVideoElement | null>, duration: number, scrub: number | null) {
  const time = useCurrentTime(videoRef);
  return scrub ?? Math.min(time, duration || time);
}

/** The seek bar, with the marked moments above it: it follows the position on its own. */
function SeekBar(props: {
  videoRef: RefObject<HTMLVideoElement | null>;
  duration: number;
  scrub: number | null;
  onScrub(seconds: number | null): void;
  onSeek(seconds: number): void;
  markers?: readonly SeekMarker[];
}) {
  const { duration, onScrub, onSeek, markers } = props;
  const position = usePosition(props.videoRef, duration, props.scrub);
  const span = Math.max(duration, 0.1);
  return (
    <div className={classes.seekRow}>
      <Slider
        className={classes.seek}
        data-seek
        min={0}
        max={span}
        step={0.1}
        value={position}
        onChange={onScrub}
        onChangeEnd={(value) => {
          onScrub(null);
          onSeek(value);
        }}
        label={formatClock}
        thumbLabel="Seek"
        thumbValueText={(value) => `${formatClock(value)} of ${formatClock(duration)}`}
        color="red"
        size="sm"
        thumbSize={14}
      />
      {duration > 0 && markers && markers.length > 0 && (
        <SeekMarkers markers={markers} span={span} onSeek={onSeek} />
      )}
    </div>
  );
}

/** Elapsed and total time (the elapsed part follows the position on its own). */
function Clock(props: {
  videoRef: RefObject<HTMLVideoElement | null>;
  duration: number;
  scrub: number | null;
}) {
  const position = usePosition(props.videoRef, props.duration, props.scrub);
  return (
    <Text className={classes.time} size="sm" aria-live="off">
      <span data-testid="elapsed">{formatClock(position)}</span> / {formatClock(props.duration)}
    </Text>
  );
}

/** The control bar: play/pause, seek, time, mute and volume, speed, fullscreen. */
export function PlayerControls(props: PlayerControlsProps) {
  const { media, duration, fullscreen, visible, actions } = props;
  // While the seek thumb is dragged, the bar and the clock show where it is; seek once it is let go.
  const [scrub, setScrub] = useState<number | null>(null);
  const silent = media.muted || media.volume === 0;

  return (
    <Box
      className={classes.controls}
      data-visible={visible || undefined}
      onFocus={() => props.onFocusChange(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) props.onFocusChange(false);
      }}
    >
      <SeekBar
        videoRef={props.videoRef}
        duration={duration}
        scrub={scrub}
        onScrub={setScrub}
        onSeek={actions.seekTo}
        markers={props.markers}
      />
      <Group justify="space-between" wrap="nowrap" gap="xs" mt={6}>
        <Group gap={4} wrap="nowrap">
          <BarButton onClick={actions.togglePlay} label={media.playing ? 'Pause' : 'Play'}>
            {media.playing ? <IconPlayerPauseFilled size={22} /> : <IconPlayerPlayFilled size={22} />}
          </BarButton>
          <BarButton onClick={actions.toggleMute} label={silent ? 'Unmute' : 'Mute'} pressed={silent}>
            {silent ? <IconVolumeOff size={22} /> : <IconVolume size={22} />}
          </BarButton>
          <Slider
            data-volume
            className={classes.volume}
            visibleFrom="xs"
            min={0}
            max={1}
            step={0.05}
            value={media.muted ? 0 : media.volume}
            onChange={actions.setVolume}
            label={(value) => `${Math.round(value * 100)}%`}
            thumbLabel="Volume"
            thumbValueText={(value) => `${Math.round(value * 100)}%`}
            color="gray.0"
            size="xs"
            thumbSize={12}
          />
          <Clock videoRef={props.videoRef} duration={duration} scrub={scrub} />
        </Group>
        <Group gap={4} wrap="nowrap">
          {props.captions && props.captions.tracks.length > 0 && <CaptionsMenu captions={props.captions} />}
          <UnstyledButton
            className={classes.speed}
            onClick={actions.cycleSpeed}
            aria-label={`Playback speed ${media.rate}x. Change speed`}
          >
            {media.rate}x
          </UnstyledButton>
          <BarButton onClick={props.onToggleFullscreen} label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}>
            {fullscreen ? <IconMinimize size={22} /> : <IconMaximize size={22} />}
          </BarButton>
        </Group>
      </Group>
    </Box>
  );
}
