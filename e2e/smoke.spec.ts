import { expect, test } from '@playwright/test';
import { closedHoursNow, screenshots, startLectern, type Lectern } from './lectern';

test.describe('smoke', () => {
  let open: Lectern;
  let closed: Lectern;
  test.beforeAll(async () => {
    [open, closed] = await Promise.all([startLectern(), startLectern({ OPEN_HOURS: closedHoursNow() })]);
  });
  test.afterAll(async () => {
    await Promise.all([open?.stop(), closed?.stop()]);
  });

  test('/ shows the login page inside opening hours', async ({ page }) => {
    await page.goto(open.url);
    await expect(page).toHaveTitle('Lectern');
    await expect(page.getByRole('heading', { name: 'Lectern' })).toBeVisible();
    await expect(page.getByLabel('Username or e-mail')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
    // No footer on the login page (SPEC.md section 2).
    await expect(page.getByRole('link', { name: 'Privacy policy' })).toHaveCount(0);
    await screenshots(page, 'login');
  });

  test('/ shows the maintenance screen outside opening hours', async ({ page }) => {
    await page.goto(closed.url);
    await expect(page.getByRole('heading', { name: 'We are closed right now' })).toBeVisible();
    await expect(page.getByText(/It opens again/)).toBeVisible();
    await expect(page.getByLabel('Username or e-mail')).toHaveCount(0);
    await screenshots(page, 'maintenance');
  });

  test('footer pages carry the footer and an unknown path gets a not-found page', async ({ page }) => {
    await page.goto(`${open.url}/support`);
    await expect(page.getByRole('heading', { name: 'Support' })).toBeVisible();
    await page.getByRole('link', { name: 'Privacy policy' }).click();
    await expect(page.getByRole('heading', { name: 'Privacy policy' })).toBeVisible();
    await expect(page).toHaveURL(/\/policy$/);
    await page.goto(`${open.url}/no/such/page`);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  test('the page runs under the strict CSP without violations', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    const response = await page.goto(open.url);
    const csp = response!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    await expect(page.getByLabel('Username or e-mail')).toBeVisible();
    expect(violations).toEqual([]);
  });
});
