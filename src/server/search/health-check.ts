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
