import { adminSignIn } from './admin-setup';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { FIRST_ANSWERS_ELEMENT_ID } from '../src/contract/first-answers';
import { serverMessages } from '../src/contract/messages';
import { TestClient } from '../test/support/http-client';
import { startLectern, type Lectern } from './lectern';
import { startAttackerSite, type AttackerSite } from './security-attacker';
import {
  activateStudent,
  AdminApi,
  makeLectureClip,
  makeThumbnail,
  type CreatedStudent,
} from './student-setup';

// Markup an admin might paste (or an attacker might plant): it must show as text, never run.
const COURSE_NAME = 'Secure <b>Coding</b>';
const DESCRIPTION = `Escaping 101: <img src=x onerror="window.__xss='description'"> and <script>window.__xss='script'</script> stay text.`;
const TITLE = `<img src=x onerror="window.__xss='title'">Injection <script>window.__xss='title'</script>`;
const PASSWORD = 'Secure@2026';

/** Collects CSP violations from every page of the context: the DOM event and Chromium's console lines. */
async function watchCsp(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__cspViolation', (_source, text: string) => void violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation(t: string): void }).__cspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  context.on('console', (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply|frame)/i.test(msg.text()))
      violations.push(msg.text());
  });
  return violations;
}

/** No planted markup became an element or ran. */
async function expectInert(page: Page) {
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
}

async function studentSignIn(page: Page, lectern: Lectern, student: CreatedStudent) {
  await page.goto(lectern.url);
  await page.getByLabel('Username or e-mail').fill(student.username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The directives of a Content-Security-Policy header. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

test.describe('browser-side security', () => {
  let lectern: Lectern;
  let attacker: AttackerSite;
  let admin: AdminApi;
  let student: CreatedStudent;
  let courseId: string;
  let videoId: string;
  let thumbnail: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    lectern = await startLectern();
    attacker = await startAttackerSite(lectern.url);
    admin = await AdminApi.signIn(lectern);
    const course = await admin.createCourse({
      name: COURSE_NAME,
      description: DESCRIPTION,
      coursecode: 'SEC',
      thumbnail: await makeThumbnail('334155', '0f172a'),
    });
    courseId = course._id;
    thumbnail = (course as { thumbnail?: string }).thumbnail!;
    student = await admin.addStudent('SEC-001', 'Mallory Tester');
    await admin.grantCourse(courseId, student.id, { days: 30 });
    videoId = await admin.uploadVideo(await makeLectureClip(6), {
      title: TITLE,
      description: DESCRIPTION,
      courseId,
      rollnos: [student.rollno],
    });
    await activateStudent(lectern, student, PASSWORD);
  });
  test.afterAll(async () => {
    await attacker?.close();
    await lectern?.stop();
  });

  test('pages, API, thumbnails and the streamer send the security headers; the HTML has no inline script', async () => {
    const root = await fetch(lectern.url);
    const csp = directives(root.headers.get('content-security-policy') ?? '');
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(root.headers.get('strict-transport-security')).toMatch(/max-age=31536000; includeSubDomains/);
    expect(root.headers.get('x-frame-options')).toBe('DENY');
    const html = await root.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    // The one inline element is the page's first answers: a JSON data block, which runs nothing.
    const code = scripts.filter(
      (tag) => tag !== `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">`,
    );
    expect(code.length).toBe(scripts.length - 1);
    for (const tag of code) expect(tag, 'every script is a file of our origin').toMatch(/\bsrc="\/[^"]+"/);
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either

    const client = new TestClient(lectern.url);
    await client.post('/api/signin', { username: student.username, password: PASSWORD });
    const master = await client.get(`/stream/videos/${videoId}/master.m3u8`);
    const child = new URL(
      master.body.split('\n').find((l: string) => l && !l.startsWith('#')),
      new URL(`/stream/videos/${videoId}/`, lectern.url),
    );
    const playlist = await client.get(child.pathname + child.search);
    const lines = playlist.body.split('\n');
    const segment = new URL(
      lines.find((l: string) => l && !l.startsWith('#')),
      child,
    );
    const key = new URL(/URI="([^"]+)"/.exec(playlist.body)![1]!, lectern.url);
    const asset = /src="([^"]+\.js)"/.exec(html)![1]!;

    const answers = {
      'index.html': root,
      script: await fetch(new URL(asset, lectern.url)),
      API: await fetch(`${lectern.url}/api/time`),
      'API 404': await fetch(`${lectern.url}/api/nope`),
      thumbnail: await fetch(new URL(thumbnail, lectern.url)),
      'master playlist': await fetch(`${lectern.url}/stream/videos/${videoId}/master.m3u8`, {
        headers: { cookie: `token=${client.token}` },
      }),
      // Links are bound to the session cookie: sent as the player sends them.
      'child playlist': await fetch(child, { headers: { cookie: `token=${client.token}` } }),
      'segment (fast path)': await fetch(segment, { headers: { cookie: `token=${client.token}` } }),
      key: await fetch(key, { headers: { cookie: `token=${client.token}` } }),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.status, name).toBe(name === 'API 404' ? 404 : 200);
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(res.headers.get('cross-origin-resource-policy'), name).toBe('same-origin');
      if (!res.bodyUsed) await res.arrayBuffer();
    }
    expect(answers.script.headers.get('content-type')).toMatch(/javascript/);
    expect(answers.thumbnail.headers.get('content-type')).toBe('image/png');
    expect(answers['segment (fast path)'].headers.get('content-type')).toBe('video/mp2t');
  });

  test('login, dashboard, course player and admin dashboard run without a CSP violation; planted markup stays text', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const violations = await watchCsp(page.context());

    await studentSignIn(page, lectern, student);
    const card = page.getByRole('link', { name: /Secure <b>Coding<\/b>/ });
    await expect(card).toContainText(DESCRIPTION);
    await expectInert(page);

    await test.step('the session cookie is HttpOnly: page script cannot read it', async () => {
      expect(await page.evaluate(() => document.cookie)).not.toContain('token');
      const cookie = (await page.context().cookies(lectern.url)).find((c) => c.name === 'token');
      // Plain HTTP here, so not Secure (Safari would drop it); over HTTPS it is (session-cookie.int.test.ts).
      expect(cookie).toMatchObject({ httpOnly: true, secure: false, sameSite: 'Lax' });
    });

    await test.step('the course player shows the title and description as text and plays', async () => {
      await card.click();
      await expect(page).toHaveURL(new RegExp(`/course/${courseId}`));
      await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Course Playlist' })).toContainText(TITLE);
      await page
        .getByRole('button', { name: /^Play / })
        .first()
        .click();
      await expect(page.getByRole('region', { name: /Video player/ })).toHaveAttribute(
        'data-state',
        'playing',
      );
      await expectInert(page);
    });

    await test.step('the admin dashboard shows the course as text', async () => {
      await adminSignIn(page, lectern);
      const row = page.getByRole('row', { name: /Secure <b>Coding<\/b>/ });
      await expect(row).toContainText(DESCRIPTION);
      await expectInert(page);
    });

    expect(violations).toEqual([]);
  });

  test('a page on another origin cannot frame Lectern', async ({ page }) => {
    const refusals: string[] = [];
    page.on('console', (msg) => {
      if (msg.text().includes('frame-ancestors')) refusals.push(msg.text());
    });
    await page.goto(`${attacker.url}/frame`);
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    expect(refusals[0]).toContain("frame-ancestors 'none'");
    await expect(page.frameLocator('#victim').getByLabel('Username or e-mail')).toHaveCount(0);
  });

  test('a cross-origin POST carrying the session cookie is refused, and the session still works', async ({
    page,
  }) => {
    await studentSignIn(page, lectern, student);

    const logout = page.waitForResponse((r) => r.url() === `${lectern.url}/api/logout`);
    await page.goto(`${attacker.url}/logout`);
    const refused = await logout;
    expect(refused.status()).toBe(403);
    // The attack is real: the browser did send the session cookie along (same site, SameSite=Lax).
    const sent = await refused.request().allHeaders();
    expect(sent.cookie).toContain('token=');
    expect(sent.origin).toBe(attacker.url);
    await page.goto(`${lectern.url}/dashboard`);
    await expect(page.getByRole('heading', { name: 'Courses' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Secure <b>Coding<\/b>/ })).toBeVisible();

    // The admin's session goes into the browser as the sign-in would put it (this part needs no admin screen).
    const adminSession = new TestClient(lectern.url);
    await adminSession.adminLogin({ username: 'admin', password: lectern.adminPassword });
    await page.context().addCookies([
      {
        name: 'token',
        value: adminSession.token!,
        url: lectern.url,
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
      },
    ]);
    // Forms navigate, so their answers can be read: refused by the origin check, cookie and all.
    for (const [form, path] of [
      ['/course-form', '/api/admin/course/create'],
      ['/upload-form', '/stream/upload-chunk'],
    ] as const) {
      const answer = page.waitForResponse((r) => r.url() === `${lectern.url}${path}`);
      await page.goto(`${attacker.url}${form}`);
      const res = await answer;
      expect(res.status(), path).toBe(403);
      expect(await res.json()).toEqual({ message: serverMessages.crossOrigin });
      expect((await res.request().allHeaders()).cookie).toContain('token=');
    }

    // No-cors answers are opaque and, being Cross-Origin-Resource-Policy: same-origin, not even
    // handed to the attacker's page: what the server did is read back from the server.
    const writes = ['/api/admin/course/create', '/stream/upload-chunk'].map((path) =>
      page.waitForRequest((r) => r.url() === `${lectern.url}${path}`),
    );
    await page.goto(`${attacker.url}/admin-writes`);
    await Promise.all(writes); // both were sent
    await expect(page).toHaveTitle('sent');
    const courses = await admin.client.get('/api/admin/course/list');
    expect(courses.body.course.map((c: { coursecode: string }) => c.coursecode)).not.toContain('PWNED');
    expect((await admin.client.get('/stream/upload-status?fileName=pwned.mp4')).body).toEqual({ offset: 0 });

    // Control: the very same multipart write from Lectern's own origin is accepted.
    await page.goto(`${lectern.url}/support`);
    const control = await page.evaluate(async () => {
      const form = new FormData();
      form.append('fileName', 'control.mp4');
      form.append('start', '0');
      form.append('file', new Blob(['not a video']), 'blob');
      const res = await fetch('/stream/upload-chunk', { method: 'POST', credentials: 'include', body: form });
      return { status: res.status, body: await res.json() };
    });
    expect(control).toEqual({ status: 200, body: { offset: 11 } });
    const check = await page.evaluate(() => fetch('/api/admin/auth/admincheck').then((r) => r.json()));
    expect(check).toEqual({ valid: true, role: 'admin' });
  });
});
