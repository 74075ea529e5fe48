// The toasts' styles come with them (this chunk loads after the first page), not in the entry.
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE_MS } from '../../contract/constants';

/**
 * The toast container (top-right, closing after 3 s). Loaded after the first page renders: toasts
 * shown before it arrives wait in the notifications store and appear when it mounts.
 */
export default function Toaster() {
  return <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} limit={4} />;
}
