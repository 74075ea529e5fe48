import './zod-jitless';
import '@mantine/core/styles.css';
import './app/global.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './api/query-client';
import { createRouter } from './app/router';
import { cssVariablesResolver, theme } from './app/theme';

// Not needed to draw the first page: its chunk loads beside the page's own.
const Toaster = lazy(() => import('./ui/Toaster'));

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={createRouter()} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
