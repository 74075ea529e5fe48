import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServer, renderRoute } from '../test-utils';
import { holdLiveWatch } from '../player/live-watch';
import { TimeGate } from './TimeGate';

const page = (
  <TimeGate>
    <p>the login page</p>
  </TimeGate>
);

/** GET /api/time's answer: open at 13:00 in Kolkata unless told otherwise. */
const serverTime =
  (overrides: Record<string, unknown> = {}) =>
  () => ({
    body: {
      hour: 13,
      open: true,
      opensAt: null,
      closesAt: null,
      timeZone: 'Asia/Kolkata',
      hours: [10, 22],
      ...overrides,
    },
  });

describe('TimeGate', () => {
  it('shows the page while the server says it is open', async () => {
    fakeServer({ 'GET /api/time': serverTime() });
    renderRoute(page);
    expect(await screen.findByText('the login page')).toBeInTheDocument();
  });

  it('shows the maintenance screen with the next opening outside hours', async () => {
    fakeServer({
      'GET /api/time': serverTime({ hour: 23, open: false, opensAt: '2026-03-03T04:30:00.000Z' }),
    });
    renderRoute(page);
    expect(await screen.findByText('We are closed right now')).toBeInTheDocument();
    expect(screen.getByText(/from 10:00 to 22:00 \(Asia\/Kolkata\)/)).toBeInTheDocument();
    expect(screen.getByText(/It opens again .*10:00 GMT\+5:30/)).toBeInTheDocument();
    expect(screen.queryByText('the login page')).not.toBeInTheDocument();
  });

  it('treats an error as closed', async () => {
    fakeServer({ 'GET /api/time': () => ({ status: 500, body: { message: 'boom' } }) });
    renderRoute(page);
    expect(await screen.findByText('We are closed right now', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('TimeGate and a live class', () => {
  it('keeps a page playing a live class at closing time, and closes once its stream ends', async () => {
    fakeServer({ 'GET /api/time': serverTime({ hour: 22, open: false }) });
    const release = holdLiveWatch();
    renderRoute(page);
    expect(await screen.findByText('the login page')).toBeInTheDocument();
    act(() => release());
    expect(await screen.findByText('We are closed right now')).toBeInTheDocument();
  });
});
