import { formatClock } from '../../player/format';

/** A share (0..1) as a whole percent. */
export const percent = (share: number) => `${Math.round(share * 100)}%`;

/** Seconds of watch time as "2 h 05 min", "12 min" or "40 s". */
export function watchTime(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A moment in a video, as the player shows it. */
export const at = (seconds: number) => formatClock(seconds);

/** How long ago an instant was, in words ("today", "3 days ago", "never"). */
export function ago(iso: string | null, now = Date.now()): string {
  if (!iso) return 'never';
  const days = Math.floor((now - new Date(iso).getTime()) / 86_400_000);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  return `${days} days ago`;
}
