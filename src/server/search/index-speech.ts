import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { readWebVtt } from '../../contract/webvtt';
import { videoCaptions } from '../db/schema';
import { PermanentJobError } from '../jobs/types';
import { inputArgs } from '../storage/ffmpeg';
import { addEntries, deleteEntries, setIndexState } from './index-store';
import { dueSource, markOff, type SourceIndexer } from './source-input';

/** How much of the command's stderr is kept for the reason (its last line is shown). */
const STDERR_KEEP = 16 * 1024;

/**
 * Runs SPEECH_COMMAND with the WAV and the .vtt to write as its two arguments (never through a
 * string), in a process group of its own: past `timeoutMs` (or when the job is stopped) the whole
 * group is killed, so a script's children (an engine it started, a `sleep`) go with it.
 */
function runSpeech(command: string, wav: string, vtt: string, timeoutMs: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const child = spawn('/bin/sh', ['-c', `${command} "$1" "$2"`, 'speech', wav, vtt], {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    let stopped: 'timeout' | 'aborted' | undefined;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const stop = (why: 'timeout' | 'aborted') => {
      stopped ??= why;
      killGroup();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (error?: Error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // Whatever the shell left running in its group (a background child) goes too.
      killGroup();
      if (error) reject(error);
      else resolve();
    };
    child.on('error', (error) => done(new PermanentJobError(`SPEECH_COMMAND failed: ${error.message}`)));
    child.on('close', (code, killedBy) => {
      if (stopped === 'aborted') return done(signal.reason as Error);
      if (stopped === 'timeout')
        return done(
          new PermanentJobError(`SPEECH_COMMAND did not finish within ${Math.round(timeoutMs / 1000)} s`),
        );
      if (code === 0) return done();
      const last = stderr.trim().split('\n').pop() || `exit ${code ?? killedBy}`;
      done(new PermanentJobError(`SPEECH_COMMAND failed: ${last}`.slice(0, 300)));
    });
  });
}

/** SPEECH_TIMEOUT_SECONDS when set, else 3x the video's length and at least 60 s. */
export const speechTimeoutMs = (setting: number | undefined, durationSeconds: number) =>
  setting !== undefined ? setting * 1000 : Math.max(60_000, durationSeconds * 3_000);

/** Speech, for videos without captions: SPEECH_COMMAND's cues, stored as machine speech. */
export const indexSpeech: SourceIndexer = async (ctx, deps, video, input, force, run) => {
  const { config, db } = ctx;
  const videoId = video.id;
  const command = config.speechCommand;
  const off = command ? undefined : 'SPEECH_COMMAND is not set';
  if (!(await dueSource(ctx, videoId, 'speech', off, force)) || !command) return undefined;
  const [captioned] = await db
    .select({ language: videoCaptions.language })
    .from(videoCaptions)
    .where(eq(videoCaptions.videoId, videoId))
    .limit(1);
  if (captioned) {
    await markOff(ctx, videoId, 'speech', 'the video has captions');
    return undefined;
  }
  await setIndexState(db, videoId, 'speech', { status: 'running', progress: 0 }, ctx.clock.now());
  const wav = ctx.media.scratch.path(`${videoId}.search.wav`);
  const vtt = ctx.media.scratch.path(`${videoId}.search.vtt`);
  try {
    const source = await input();
    await deps.tools.ffmpeg(
      [...inputArgs(source.file, source.format), '-vn', '-sn', '-ac', '1', '-ar', '16000', '-f', 'wav', wav],
      { signal: run.signal, lowPriority: true },
    );
    const timeoutMs = speechTimeoutMs(config.speechTimeoutSeconds, video.durationSeconds);
    await runSpeech(command, wav, vtt, timeoutMs, run.signal);
    const cues = readWebVtt(await readFile(vtt, 'utf8').catch(() => ''));
    if (!cues) throw new PermanentJobError('SPEECH_COMMAND wrote no WebVTT');
    return await db.transaction(async (tx) => {
      await deleteEntries(tx, videoId, 'speech');
      const written = await addEntries(
        tx,
        videoId,
        'speech',
        cues.map((c) => ({ startSeconds: c.start, endSeconds: c.end, text: c.plain })),
      );
      await setIndexState(tx, videoId, 'speech', { status: 'done', progress: 1 }, ctx.clock.now());
      return written;
    });
  } finally {
    await rm(wav, { force: true });
    await rm(vtt, { force: true });
  }
};
