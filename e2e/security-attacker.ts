import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AttackerSite {
  /** http://127.0.0.1:<other port>: another origin, the same site (the SameSite=Lax cookie rides along). */
  url: string;
  close(): Promise<void>;
}

const html = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>attacker</title></head><body>${body}</body></html>`;

/**
 * Pages of a hostile site on another port of 127.0.0.1, aimed at `lectern`:
 * - /frame frames Lectern's login page;
 * - /logout submits a form that POSTs to /api/logout;
 * - /course-form and /upload-form submit forms at admin writes (text/plain "JSON", multipart);
 * - /admin-writes sends credentialed no-cors fetches at admin writes: a text/plain "JSON" course and a
 *   multipart upload chunk (simple requests, so no preflight stops them in the browser);
 *   the page title reads "sent" once both have settled.
 */
export async function startAttackerSite(lectern: string): Promise<AttackerSite> {
  const pages: Record<string, string> = {
    '/frame': html(`<iframe id="victim" src="${lectern}/" width="800" height="600"></iframe>`),
    '/logout': html(
      `<form id="f" method="POST" action="${lectern}/api/logout" enctype="text/plain"><input name="x" value="1"></form>` +
        `<script>document.getElementById('f').submit()</script>`,
    ),
    '/course-form': html(
      `<form id="f" method="POST" action="${lectern}/api/admin/course/create" enctype="text/plain">` +
        `<input name='{"batch":1,"coursecode":"FORMED","name":"Formed","description":"x","startdate":"2026-01-01","enddate":"2026-02-01","x":"' value='"}'></form>` +
        `<script>document.getElementById('f').submit()</script>`,
    ),
    '/upload-form': html(
      `<form id="f" method="POST" action="${lectern}/stream/upload-chunk" enctype="multipart/form-data">` +
        `<input name="fileName" value="formed.mp4"><input name="start" value="0"><input name="file" value="not a video"></form>` +
        `<script>document.getElementById('f').submit()</script>`,
    ),
    '/admin-writes': html(`<script>
      const course = fetch('${lectern}/api/admin/course/create', {
        method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ batch: 1, coursecode: 'PWNED', name: 'Pwned', description: 'x', startdate: '2026-01-01', enddate: '2026-02-01' }),
      });
      const form = new FormData();
      form.append('fileName', 'pwned.mp4');
      form.append('start', '0');
      form.append('file', new Blob(['not a video']), 'blob');
      const chunk = fetch('${lectern}/stream/upload-chunk', { method: 'POST', mode: 'no-cors', credentials: 'include', body: form });
      Promise.allSettled([course, chunk]).then(() => { document.title = 'sent'; });
    </script>`),
  };
  const server: Server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
