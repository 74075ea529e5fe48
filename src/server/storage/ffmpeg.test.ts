import { describe, expect, it } from 'vitest';
import { createMediaTools, inputArgs } from './ffmpeg';

describe('inputArgs', () => {
  it('holds each input to its own protocol and to plain containers (or the format forced)', () => {
    expect(inputArgs('/data/media/sources/v1')).toEqual([
      '-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,mpegts,avi,flv', '-i', '/data/media/sources/v1',
    ]); // prettier-ignore
    expect(inputArgs('http://127.0.0.1:7480/b/sources/v1?X-Amz-Signature=s').slice(0, 2)).toEqual([
      '-protocol_whitelist',
      'http,tcp',
    ]);
    expect(inputArgs('https://s3.example.com/b/sources/v1?X-Amz-Signature=s')[1]).toBe('https,tls,tcp');
    expect(inputArgs('-', 'mpegts')).toEqual([
      '-protocol_whitelist', 'pipe', '-format_whitelist', 'mpegts', '-f', 'mpegts', '-i', '-',
    ]); // prettier-ignore
  });

  it('is the only way in: an ffmpeg input without it is refused before anything runs', async () => {
    const tools = createMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
    await expect(tools.ffmpeg(['-i', '/etc/passwd', '-f', 'null', '-'])).rejects.toThrow(
      /an ffmpeg input without inputArgs/,
    );
    await expect(tools.ffmpegOutput(['-f', 'mpegts', '-i', '-', '-f', 'null', '-'])).rejects.toThrow(
      /an ffmpeg input without inputArgs/,
    );
    // A generated input (the demo lectures) passes through it too.
    const frames = await tools.ffmpegOutput([
      ...inputArgs('testsrc=size=32x16:rate=5:duration=1', 'lavfi'),
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ]);
    expect(frames.length).toBe(5 * 32 * 16);
  });

  it('runs FFMPEG_PATH and FFPROBE_PATH, not whatever is on PATH', async () => {
    const tools = createMediaTools({
      ffmpegPath: '/nonexistent/ffmpeg',
      ffprobePath: '/nonexistent/ffprobe',
    });
    await expect(tools.ffmpegOutput([...inputArgs('x', 'lavfi'), '-f', 'null', '-'])).rejects.toThrow(
      /^\/nonexistent\/ffmpeg could not start/,
    );
    await expect(tools.probe('/tmp/x.mp4')).rejects.toThrow(/^\/nonexistent\/ffprobe could not start/);
  });
});
