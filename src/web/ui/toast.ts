import { notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE_MS } from '../../contract/constants';

type Kind = 'success' | 'error' | 'info';
const COLORS: Record<Kind, string> = { success: 'teal', error: 'red', info: 'blue' };

function show(kind: Kind, message: string) {
  notifications.show({
    message,
    color: COLORS[kind],
    withBorder: true,
    position: 'top-right',
    autoClose: TOAST_AUTO_CLOSE_MS,
  });
}

/** Top-right toasts that close after 3 s (the container is ui/Toaster). */
export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
};

const recent = new Map<string, number>();

/** A toast that is not repeated while the same message was shown in the last few seconds (session toasts show once). */
export function toastOnce(kind: Kind, message: string, withinMs = 10_000): void {
  const now = Date.now();
  if ((recent.get(message) ?? 0) > now - withinMs) return;
  recent.set(message, now);
  show(kind, message);
}
