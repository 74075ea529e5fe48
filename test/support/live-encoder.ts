import { spawn, type ChildProcess } from 'node:child_process';

/**
 * ffmpeg as an instructor's encoder publishing a lavfi picture (`picture`, e.g.
 * `testsrc2=size=640x480:rate=15`) and a tone over SRT, in real time for `seconds`: H.264 with a
 * keyframe every 2 s at 15 fps, AAC, MPEG-TS (docs/LIVE.md "Streaming from OBS").
 */
export function liveEncoder(srtUrl: string, picture: string, seconds: number): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', picture],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'],
      ...[
        '-t',
        String(seconds),
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-g',
        '30',
        '-pix_fmt',
        'yuv420p',
      ],
      ...['-c:a', 'aac', '-b:a', '64k', '-f', 'mpegts', srtUrl],
    ],
    { stdio: 'ignore' },
  );
}
