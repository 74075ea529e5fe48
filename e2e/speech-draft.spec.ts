import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { adminShots, adminSignIn, openScreen, toastWith } from './admin-setup';
import type { Lectern } from './lectern';
import { startOneVideoClass } from './watch-setup';

const run = promisify(execFile);
const TITLE = 'Spoken introduction';

/** 8 s of a dark slide with a sentence spoken by espeak-ng (pocketsphinx hears something, not these words). */
async function spokenLecture(): Promise<string> {
  const dir = path.join(tmpdir(), 'lectern-e2e-clips');
  await mkdir(dir, { recursive: true });
  const wav = path.join(dir, 'speech-draft.wav');
  const file = path.join(dir, 'speech-draft-8s.mp4');
  await run('espeak-ng', ['-w', wav, 'hello world this is a test of the search index']);
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'color=c=0x1e1e1e:s=640x360:d=8:r=25',
    '-i', wav, '-af', 'apad', '-t', '8',
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '50',
    '-c:a', 'aac', '-b:a', '48k', file,
  ]); // prettier-ignore
  return file;
}

/**
 * Issue 29: what SPEECH_COMMAND (here Debian's pocketsphinx through scripts/speech/pocketsphinx-vtt.sh)
 * heard is a draft caption track the admin downloads or publishes on the video's Captions screen.
 */
test.describe('the draft caption track from speech', () => {
  let lectern: Lectern;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    ({ lectern } = await startOneVideoClass({
      course: { name: 'Speech Course', description: 'Heard by a machine.', coursecode: 'SPC' },
      students: [['SP-101', 'Meera Pillai']],
      video: { title: TITLE, description: 'A sentence.', file: await spokenLecture() },
      env: { SPEECH_COMMAND: path.resolve('scripts/speech/pocketsphinx-vtt.sh') },
    }));
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('the admin sees the draft from speech, downloads it and publishes it as captions', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await adminSignIn(page, lectern);
    await openScreen(page, lectern, '/editvideodetails', 'Edit Video Details');
    // The runner queues a packaged video within 30 s; pocketsphinx hears 8 s in about as long.
    const index = page.getByRole('dialog', { name: `Search index: ${TITLE}` });
    await page.getByRole('button', { name: `Search index of ${TITLE}` }).click();
    await expect(index.getByRole('listitem', { name: 'Speech' }).getByText('Done')).toBeVisible({
      timeout: 180_000,
    });
    await page.keyboard.press('Escape');
    await expect(index).toBeHidden();

    await page.getByRole('button', { name: `Captions of ${TITLE}` }).click();
    const dialog = page.getByRole('dialog', { name: `Captions: ${TITLE}` });
    const draft = dialog.getByRole('region', { name: 'Draft from speech' });
    await expect(draft).toContainText(/\d+ cues? heard by the speech engine/);
    await expect(dialog.getByText('No captions yet.')).toBeVisible();
    await adminShots(page, 'captions-speech-draft');

    const download = page.waitForEvent('download');
    await draft.getByRole('link', { name: 'Download (.vtt)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^speech-draft-.*\.vtt$/);
    const stream = await file.createReadStream();
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    expect(text).toMatch(/^WEBVTT\n\n\d\d:\d\d:\d\d\.\d{3} --> \d\d:\d\d:\d\d\.\d{3}\n\S/);

    await draft.getByRole('button', { name: 'Publish as captions' }).click();
    await expect(toastWith(page, 'Draft published as captions.')).toBeVisible();
    await expect(dialog.getByRole('row', { name: /^en English \d+/ })).toBeVisible();
    await expect(draft).toBeHidden();
    await adminShots(page, 'captions-speech-draft-published');
  });
});
