import './zod-jitless';
// Not Mantine's whole stylesheet: the components outside the back office (app/mantine-styles.css).
import './app/mantine-styles.css';
import './app/global.css';
import { MantineProvider } from '@mantine/core';
import { notificationsStore, type NotificationsState } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './api/query-client';
import { createRouter } from './app/router';
import { cssVariablesResolver, theme } from './app/theme';
import { useAfterPageSettles } from './ui/after-load';

// Not needed to draw the first page: its chunk loads when the first toast is shown, or once the
// page has settled, so it does not compete with the page's own code on a slow network.
const Toaster = lazy(() => import('./ui/Toaster'));

function DeferredToaster() {
  const [wanted, want] = useAfterPageSettles();
  useEffect(() => {
    if (wanted) return;
    const shown = (state: NotificationsState) => state.notifications.length > 0 || state.queue.length > 0;
    if (shown(notificationsStore.getState())) want();
    return notificationsStore.subscribe((state) => shown(state) && want());
  }, [wanted, want]);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

const queryClient = createQueryClient();
const router = createRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <DeferredToaster />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
