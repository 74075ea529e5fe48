import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from './api/query-client';
import { theme } from './app/theme';

export type FakeRoutes = Record<
  string,
  (init: RequestInit | undefined) => { status?: number; body?: unknown }
>;

/** A request body as a test reads it: JSON parsed, form data as an object of fields (files stay Blobs). */
function bodyOf(body: RequestInit['body'] | undefined): unknown {
  if (body === undefined || body === null) return undefined;
  if (body instanceof FormData) return Object.fromEntries(body.entries());
  try {
    return JSON.parse(String(body));
  } catch {
    return body;
  }
}

/**
 * Stands in for the server at the network boundary: `routes` maps "METHOD /path" to a response.
 * Unknown calls fail the test loudly.
 */
export function fakeServer(routes: FakeRoutes) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const key = `${method} ${url.pathname}`;
    calls.push({ method, path: url.pathname, body: bodyOf(init?.body) });
    const handler = routes[key];
    if (!handler) throw new Error(`unexpected request ${key}`);
    const { status = 200, body = {} } = handler(init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, fetch: fetchStub };
}

/**
 * Renders `element` as the route `path` inside the app's providers, starting at `url` (the path
 * itself unless given, e.g. with a query string), with extra routes to observe navigation.
 */
export function renderRoute(
  element: ReactElement,
  { path = '/', url, extra = [] }: { path?: string; url?: string; extra?: RouteObject[] } = {},
) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createMemoryRouter([{ path, element }, ...extra], { initialEntries: [url ?? path] });
  const result = render(
    <MantineProvider theme={theme}>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, router, queryClient };
}
