// The toasts' styles come with them (this chunk loads after the first page), not in the entry.
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import type { CSSProperties } from 'react';
import { TOAST_AUTO_CLOSE_MS } from '../../contract/constants';
import classes from './Toaster.module.css';
import { TOP_BAR_HEIGHT } from './TopBar';

/**
 * The toast container (top-right, closing after 3 s), below the top bar: over it, a toast covered the
 * navigation's right end and Logout, and a pointer on its way there, resting on the toast, held it
 * open. Loaded after the first page renders: toasts shown before it arrives wait in the
 * notifications store and appear when it mounts.
 */
export default function Toaster() {
  return (
    <Notifications
      position="top-right"
      autoClose={TOAST_AUTO_CLOSE_MS}
      limit={4}
      classNames={{ root: classes.root }}
      style={{ '--top-bar-height': `${TOP_BAR_HEIGHT}px` } as CSSProperties}
    />
  );
}
