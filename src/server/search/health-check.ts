import { execFile } from 'node:child_process';
import type { AppContext } from '../context';
import type { HealthCheck } from '../health/readiness';
import { checkTesseract } from './ocr';

/**
 * Tesseract for text on screen (SEARCH_OCR=on, where jobs run): missing, or without an OCR_LANGS
 * language, the screen-text jobs wait and `/readyz` and the doctor say why. Search still answers
 * from what is indexed, so the node stays ready (advisory).
 */
export function tesseractCheck(config: AppContext['config']): HealthCheck {
  return {
    name: 'tesseract',
    cacheMs: 60_000,
    // Playback and search go on without it: reported, never a reason to stop serving.
    advisory: true,
    probe: (signal) => checkTesseract(config.tesseractPath, config.ocrLangs, signal),
  };
}

/**
 * SPEECH_COMMAND (where jobs run, when set): its program must be there, or the speech jobs fail;
 * `/readyz` and the doctor say so. Advisory, as Tesseract: search answers from what is indexed.
 */
export function speechCommandCheck(command: string): HealthCheck {
  const program = command.trim().split(/\s+/)[0] ?? '';
  return {
    name: 'speech command',
    cacheMs: 60_000,
    advisory: true,
    probe: (signal) =>
      new Promise<void>((resolve, reject) => {
        // `command -v` finds a path or a program on PATH, as `sh -c` will when the job runs it.
        execFile('sh', ['-c', 'command -v -- "$1"', 'speech', program], { signal }, (error) =>
          error ? reject(new Error(`SPEECH_COMMAND: ${program} is not found or not executable`)) : resolve(),
        );
      }),
  };
}
