import { useCallback, useRef, useState } from 'react';

/**
 * When playback fails for good. The engine recovers what it can by itself (engine.ts: one retry each
 * for network and decoding trouble, a stop after segment failures in a row, stuck seeks nudged and the
 * pipeline rebuilt: stuck-seek.ts); what it gives up on lands here, is reported, explained by the
 * server where it can, and shown with Try again, which attaches the stream anew.
 */
export interface Recovery {
  /** The message shown over the picture, or null while playback is fine. */
  error: string | null;
  /** Bumped by Try again: the stream hook attaches again when it changes. */
  attempt: number;
  retry(): void;
  /** A new attach: no error yet. */
  clear(): void;
  /** A fatal error `code` on `src`; the message is set only while `current()` (the attach is not replaced). */
  fail(code: string, src: string, current: () => boolean): Promise<void>;
  /** No way to play HLS here (engine.ts' message). */
  unsupported(message: string): void;
}

export const UNPLAYABLE = 'This video could not be played.';
export const CONNECTION_LOST = 'The connection to the server was lost.';

/** The media element hides HTTP details: ask the server why `src` fails (no access, still processing…). */
export async function explainFailure(src: string): Promise<string | null> {
  try {
    const res = await fetch(src, { credentials: 'same-origin' });
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    return res.ok ? null : (body.message ?? null);
  } catch {
    return CONNECTION_LOST;
  }
}

/**
 * `onPlaybackError` hears every fatal error's short code (for health reports). `heldFailure` may
 * take a failure for a checkpoint's hold (player/hold.ts): then no error, the stream is attached
 * again (it says where).
 */
export function useRecovery(onPlaybackError?: (code: string) => void, heldFailure?: () => boolean): Recovery {
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const onErrorRef = useRef(onPlaybackError);
  onErrorRef.current = onPlaybackError;
  const heldRef = useRef(heldFailure);
  heldRef.current = heldFailure;

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const clear = useCallback(() => setError(null), []);
  const fail = useCallback(async (code: string, src: string, current: () => boolean) => {
    if (current() && heldRef.current?.()) return setAttempt((n) => n + 1);
    onErrorRef.current?.(code);
    const reason = await explainFailure(src);
    if (current()) setError(reason ?? UNPLAYABLE);
  }, []);
  const unsupported = useCallback((message: string) => {
    onErrorRef.current?.('unsupported');
    setError(message);
  }, []);

  return { error, attempt, retry, clear, fail, unsupported };
}
