import type { TestClient } from './http-client';

/**
 * Waits until a signed-in admin sees every demo lecture packaged (`ready`), so the streaming routes
 * have something to serve; returns how many there are. Throws when one fails or after 3 minutes.
 */
export async function waitForDemoLectures(admin: TestClient): Promise<number> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const list = await admin.get<{ videos: { status: string; failureReason?: string }[] }>(
      '/api/admin/video/editlist',
    );
    const videos = list.body.videos ?? [];
    const failed = videos.find((v) => v.status === 'failed');
    if (failed) throw new Error(`a demo lecture failed to package: ${failed.failureReason}`);
    if (videos.length > 0 && videos.every((v) => v.status === 'ready')) return videos.length;
    if (Date.now() > deadline) throw new Error('the demo lectures were not packaged within 3 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
}
