import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SourceIndexState, VideoIndexResponse } from '../../../contract/search';
import type { AdminVideo } from '../../../contract/videos';
import { fakeServer, renderRoute } from '../../test-utils';
import { SearchIndexModal, sourceStatusText } from './SearchIndexModal';

const video = { _id: 'v1', title: 'Hooks in depth', status: 'ready' } as AdminVideo;

const state = (source: SourceIndexState['source'], patch: Partial<SourceIndexState>): SourceIndexState => ({
  source,
  status: 'done',
  progress: 1,
  entries: 0,
  error: null,
  updatedAt: '2026-03-02T08:00:00.000Z',
  ...patch,
});

const answer = (sources: SourceIndexState[]): { body: VideoIndexResponse } => ({
  body: { videoId: 'v1', sources },
});

describe('search index modal', () => {
  it('shows each source, polls while one runs, and says why one failed', async () => {
    const answers = [
      answer([
        state('captions', { entries: 12 }),
        state('screen', { status: 'running', progress: 0.4, entries: 3 }),
        state('speech', { status: 'failed', progress: 0, error: 'SPEECH_COMMAND failed: no model' }),
      ]),
      answer([
        state('captions', { entries: 12 }),
        state('screen', { entries: 9 }),
        state('speech', { status: 'failed', progress: 0, error: 'SPEECH_COMMAND failed: no model' }),
      ]),
    ];
    let asked = 0;
    fakeServer({ 'GET /api/admin/videos/v1/index': () => answers[Math.min(asked++, 1)]! });
    renderRoute(<SearchIndexModal video={video} onClose={() => {}} />);
    const screenText = await screen.findByRole('listitem', { name: 'Text on screen' });
    expect(within(screenText).getByText('40%')).toBeTruthy();
    expect(within(screenText).getByRole('progressbar', { name: 'Text on screen: 40% indexed' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Re-index' }).hasAttribute('disabled')).toBe(true);
    const speech = screen.getByRole('listitem', { name: 'Speech' });
    expect(within(speech).getByRole('alert').textContent).toBe('SPEECH_COMMAND failed: no model');
    // Polled until the screen text is done.
    await waitFor(() => expect(within(screenText).getByText('Done')).toBeTruthy(), { timeout: 4000 });
    expect(within(screenText).getByText('9 entries')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Re-index' }).hasAttribute('disabled')).toBe(false);
  });

  it('re-indexes, and shows the server reason when refused', async () => {
    const server = fakeServer({
      'GET /api/admin/videos/v1/index': () =>
        answer([
          state('captions', {}),
          state('screen', {}),
          state('speech', { status: 'off', error: 'SPEECH_COMMAND is not set' }),
        ]),
      'POST /api/admin/videos/v1/index': () => ({
        status: 409,
        body: { message: 'This video is already queued or being indexed.' },
      }),
    });
    renderRoute(<SearchIndexModal video={video} onClose={() => {}} />);
    expect(await screen.findByText('Not indexed: SPEECH_COMMAND is not set')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Re-index' }));
    expect(server.calls.some((c) => c.method === 'POST' && c.path === '/api/admin/videos/v1/index')).toBe(
      true,
    );
    expect(await screen.findAllByText('This video is already queued or being indexed.')).not.toHaveLength(0);
  });

  it('words the status', () => {
    expect(sourceStatusText({ status: 'running', progress: 0.456 })).toBe('45%');
    expect(sourceStatusText({ status: 'queued', progress: 0 })).toBe('Queued');
    expect(sourceStatusText({ status: 'queued', progress: 0.5 })).toBe('Queued (50% done)');
    expect(sourceStatusText({ status: 'failed', progress: 0 })).toBe('Failed');
    expect(sourceStatusText({ status: 'off', progress: 0, updatedAt: null })).toBe('Not yet');
    expect(sourceStatusText({ status: 'off', progress: 0, updatedAt: '2026-03-02T08:00:00.000Z' })).toBe(
      'Off',
    );
  });
});
