import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { mediaMatrix } from '../../../test/support/stores';
import { suiteMedia, type ClipOptions } from '../../../test/support/media-kit';

const run = promisify(execFile);

interface Variant {
  attributes: string;
  url: string;
}

/** The EXT-X-STREAM-INF lines of a master playlist with their child playlist URLs. */
function variantsOf(master: string, base: string): Variant[] {
  const lines = master.split('\n');
  return lines.flatMap((line, i) =>
    line.startsWith('#EXT-X-STREAM-INF:')
      ? [{ attributes: line.slice(18), url: new URL(lines[i + 1]!, base).toString() }]
      : [],
  );
}

const attribute = (attributes: string, name: string) =>
  new RegExp(`(?:^|,)${name}=("[^"]*"|[^,]*)`).exec(attributes)?.[1]?.replace(/"/g, '');

/**
 * `avc1.PPCCLL` as the stream itself says: the profile, constraint flags and level bytes of the
 * first sequence parameter set ffmpeg copies out of the (decrypted) rendition.
 */
async function avcOfStream(url: string, session: string): Promise<string> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-nostdin', '-headers', `Cookie: token=${session}\r\n`, '-i', url,
      '-map', '0:v:0', '-c:v', 'copy', '-frames:v', '1', '-f', 'h264', 'pipe:1'], // prettier-ignore
    { encoding: 'buffer', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  for (let i = 0; i + 6 < stdout.length; i++) {
    if (stdout[i] === 0 && stdout[i + 1] === 0 && stdout[i + 2] === 1 && (stdout[i + 3]! & 0x1f) === 7)
      return `avc1.${stdout.subarray(i + 4, i + 7).toString('hex')}`;
  }
  throw new Error('no SPS in the stream');
}

// The attributes come from the store's files, not the database: PGlite, on every store.
describe.each(mediaMatrix(['pglite']))(
  'CODECS and FRAME-RATE in master playlists (%s, %s store)',
  (engine, store) => {
    const { media, admin } = suiteMedia({ engine, store });

    /** An uploaded clip, packaged with its whole ladder. */
    async function packaged(clip: ClipOptions, name: string) {
      const video = await media.uploadReady(admin, clip, name);
      await media.runner.idle();
      return video;
    }

    async function masterOf(url: string) {
      const res = await admin.get(url);
      expect(res.status).toBe(200);
      return variantsOf(res.body as string, new URL(url, media.server.url).toString());
    }

    /** Every variant names its codecs as its own stream does, and the clip's 25 frames a second. */
    async function expectDescribed(variants: Variant[]) {
      for (const variant of variants) {
        const codecs = attribute(variant.attributes, 'CODECS');
        expect(codecs, variant.attributes).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
        expect(codecs!.split(',')[0]).toBe(await avcOfStream(variant.url, admin.token!));
        expect(attribute(variant.attributes, 'FRAME-RATE')).toBe('25.000');
      }
    }

    it('describes a remuxed video (the source H.264 as is) and every rung of a ladder', async () => {
      const remuxed = await packaged({ seconds: 3 }, 'remuxed.mp4');
      const one = await masterOf(remuxed.body.url);
      expect(one).toHaveLength(1);
      // libx264's ultrafast clip: Constrained Baseline, level 1.2; AAC LC.
      expect(attribute(one[0]!.attributes, 'CODECS')).toBe('avc1.42c00c,mp4a.40.2');
      await expectDescribed(one);

      const laddered = await packaged({ seconds: 3, width: 640, height: 400 }, 'ladder.mp4');
      const rungs = await masterOf(laddered.body.url);
      expect(rungs.map((v) => attribute(v.attributes, 'RESOLUTION'))).toEqual(['640x400', '576x360']);
      // The rung is encoded by Lectern: High profile.
      expect(attribute(rungs[1]!.attributes, 'CODECS')).toMatch(/^avc1\.6400[0-9a-f]{2},mp4a\.40\.2$/);
      await expectDescribed(rungs);
    });

    it('describes a video packaged before they were recorded on the first read, and saves it', async () => {
      const old = await packaged({ seconds: 3, width: 640, height: 400 }, 'old.mp4');
      // What packaging wrote before CODECS and FRAME-RATE: no master playlist was read yet.
      const infoKeys = (await media.objects(`videos/${old.videoId}/`)).filter((k) =>
        k.endsWith('/info.json'),
      );
      expect(infoKeys).toHaveLength(2);
      const before = new Map<string, string>();
      for (const key of infoKeys) {
        const info = JSON.parse((await media.objectText(key))!) as Record<string, unknown>;
        before.set(key, `${info.codecs as string}|${info.frameRate as number}`);
        const { width, height, bandwidth, averageBandwidth } = info;
        await media.store.put(
          key,
          Buffer.from(JSON.stringify({ width, height, bandwidth, averageBandwidth })),
        );
      }

      const variants = await masterOf(old.body.url);
      expect(variants).toHaveLength(2);
      await expectDescribed(variants);
      for (const key of infoKeys) {
        const saved = JSON.parse((await media.objectText(key))!) as Record<string, unknown>;
        expect(`${saved.codecs as string}|${saved.frameRate as number}`).toBe(before.get(key));
      }
    });
  },
);
