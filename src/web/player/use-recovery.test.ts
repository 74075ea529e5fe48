import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONNECTION_LOST, explainFailure, UNPLAYABLE, useRecovery } from './use-recovery';

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status })),
  );
}

afterEach(() => void vi.unstubAllGlobals());

describe('useRecovery', () => {
  it('asks the server why a stream fails: its message, none when it plays, or the lost connection', async () => {
    answer(403, { message: 'Your access to this course has ended.' });
    expect(await explainFailure('/stream/x.m3u8')).toBe('Your access to this course has ended.');
    answer(200, {});
    expect(await explainFailure('/stream/x.m3u8')).toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('offline'))),
    );
    expect(await explainFailure('/stream/x.m3u8')).toBe(CONNECTION_LOST);
  });

  it('reports a failure, shows why, and clears it; Try again bumps the attempt', async () => {
    answer(200, {});
    const onError = vi.fn();
    const { result } = renderHook(() => useRecovery(onError));
    await act(() => result.current.fail('fragLoadError', '/s.m3u8', () => true));
    expect(onError).toHaveBeenCalledWith('fragLoadError');
    expect(result.current.error).toBe(UNPLAYABLE);
    act(() => result.current.retry());
    expect(result.current.attempt).toBe(1);
    act(() => result.current.clear());
    expect(result.current.error).toBeNull();
  });

  it('shows nothing for an attach already replaced; reports a browser that cannot play HLS', async () => {
    answer(500, { message: 'late' });
    const onError = vi.fn();
    const { result } = renderHook(() => useRecovery(onError));
    await act(() => result.current.fail('media-error-3', '/s.m3u8', () => false));
    expect(result.current.error).toBeNull();
    act(() => result.current.unsupported('This browser cannot play this video.'));
    expect(onError.mock.calls).toEqual([['media-error-3'], ['unsupported']]);
    expect(result.current.error).toBe('This browser cannot play this video.');
  });

  it('takes a failure for the checkpoint hold when told: no error, no report, the stream attached again', async () => {
    answer(200, {});
    const onError = vi.fn();
    let held = true;
    const { result } = renderHook(() => useRecovery(onError, () => held));
    await act(() => result.current.fail('media-error-3', '/s.m3u8', () => true));
    expect(result.current.error).toBeNull();
    expect(result.current.attempt).toBe(1);
    expect(onError).not.toHaveBeenCalled();
    held = false;
    await act(() => result.current.fail('media-error-3', '/s.m3u8', () => true));
    expect(result.current.error).toBe(UNPLAYABLE);
    expect(onError).toHaveBeenCalledWith('media-error-3');
  });
});
