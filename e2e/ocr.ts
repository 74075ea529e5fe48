import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import type { Lectern } from './lectern';
import type { CreatedStudent } from './student-setup';

const run = promisify(execFile);

/**
 * The text Debian's tesseract (eng) reads in a PNG, as sparse text anywhere on it. The picture is
 * first enlarged twice in gray (ffmpeg), as one would prepare a leaked screenshot: tesseract reads
 * small screen text far better that way.
 */
export async function ocr(png: Buffer, name: string): Promise<string> {
  const file = path.join(tmpdir(), `lectern-ocr-${process.pid}-${name}.png`);
  const large = file.replace(/\.png$/, '-2x.png');
  await writeFile(file, png);
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    file,
    '-vf',
    'scale=iw*2:ih*2:flags=lanczos,format=gray',
    large,
  ]);
  const { stdout } = await run('tesseract', [large, 'stdout', '--psm', '11']);
  return stdout;
}

/** Signs a student in through the API, in the page's cookie jar. */
export async function signInStudent(page: Page, lectern: Lectern, student: CreatedStudent): Promise<void> {
  const res = await page.request.post(`${lectern.url}/api/signin`, {
    data: { username: student.username, password: student.password },
  });
  expect(res.ok()).toBe(true);
}
