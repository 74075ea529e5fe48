import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CaptionTrack } from '../../../contract/captions';
import type { AdminVideo } from '../../../contract/videos';
import { fakeServer, renderRoute } from '../../test-utils';
import { CaptionsModal } from './CaptionsModal';

const video = { _id: 'v1', title: 'Hooks in depth', status: 'ready' } as AdminVideo;

const english: CaptionTrack = {
  language: 'en',
  label: 'English',
  cues: 3,
  updatedAt: '2026-03-02T08:00:00.000Z',
};

describe('captions modal: the draft from speech', () => {
  it('shows the draft with its cues and download link, and publishes it in the language chosen', async () => {
    let captions: CaptionTrack[] = [];
    let draft: { cues: number; updatedAt: string } | null = {
      cues: 12,
      updatedAt: '2026-03-02T08:00:00.000Z',
    };
    const server = fakeServer({
      'GET /api/admin/videos/v1/captions': () => ({ body: { captions } }),
      'GET /api/admin/videos/v1/captions/speech-draft': () => ({ body: { draft } }),
      'POST /api/admin/videos/v1/captions/speech-draft/publish': () => {
        captions = [{ ...english, language: 'hi', label: 'Hindi', cues: 12 }];
        draft = null;
        return {
          body: { message: 'Draft published as captions.', caption: captions[0] },
        };
      },
    });
    renderRoute(<CaptionsModal video={video} onClose={() => {}} />);
    const panel = await screen.findByRole('region', { name: 'Draft from speech' });
    expect(within(panel).getByText(/^12 cues heard by the speech engine/)).toBeTruthy();
    const download = within(panel).getByRole('link', { name: 'Download (.vtt)' });
    expect(download.getAttribute('href')).toBe('/api/admin/videos/v1/captions/speech-draft?format=vtt');
    expect(download.hasAttribute('download')).toBe(true);

    const language = within(panel).getByRole('textbox', { name: 'Draft language (BCP 47)' });
    expect((language as HTMLInputElement).value).toBe('en');
    await userEvent.clear(language);
    await userEvent.type(language, 'not a tag');
    await userEvent.click(within(panel).getByRole('button', { name: 'Publish as captions' }));
    expect(
      await within(panel).findByText('language must be a BCP 47 tag such as "en" or "pt-BR".'),
    ).toBeTruthy();
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.clear(language);
    await userEvent.type(language, 'hi');
    await userEvent.click(within(panel).getByRole('button', { name: 'Publish as captions' }));
    await waitFor(() =>
      expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ language: 'hi' }),
    );
    // The published track is listed, and the draft (retired by the server) is gone.
    expect(await screen.findByRole('cell', { name: 'Hindi' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Draft from speech' })).toBeNull());
  });

  it('warns that publishing replaces a language already there, and sends the label given', async () => {
    const server = fakeServer({
      'GET /api/admin/videos/v1/captions': () => ({ body: { captions: [english] } }),
      'GET /api/admin/videos/v1/captions/speech-draft': () => ({
        body: { draft: { cues: 1, updatedAt: '2026-03-02T08:00:00.000Z' } },
      }),
      'POST /api/admin/videos/v1/captions/speech-draft/publish': () => ({
        status: 404,
        body: { message: 'No machine speech for this video: nothing to draft captions from.' },
      }),
    });
    renderRoute(<CaptionsModal video={video} onClose={() => {}} />);
    const panel = await screen.findByRole('region', { name: 'Draft from speech' });
    expect(within(panel).getByText(/^1 cue heard/)).toBeTruthy();
    expect(await within(panel).findByText('Publishing replaces the English captions (en).')).toBeTruthy();
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Draft label' }), 'English (machine)');
    await userEvent.click(within(panel).getByRole('button', { name: 'Publish as captions' }));
    await waitFor(() =>
      expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({
        language: 'en',
        label: 'English (machine)',
      }),
    );
    expect(
      await within(panel).findByText('No machine speech for this video: nothing to draft captions from.'),
    ).toBeTruthy();
  });

  it('shows no draft for a video without speech cues', async () => {
    fakeServer({
      'GET /api/admin/videos/v1/captions': () => ({ body: { captions: [english] } }),
      'GET /api/admin/videos/v1/captions/speech-draft': () => ({ body: { draft: null } }),
    });
    renderRoute(<CaptionsModal video={video} onClose={() => {}} />);
    expect(await screen.findByRole('cell', { name: 'English' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Draft from speech' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Download (.vtt)' })).toBeNull();
  });
});
