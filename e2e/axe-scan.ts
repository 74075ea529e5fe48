import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

const WIDTHS = [
  ['desktop', 1280, 800],
  ['mobile', 390, 844],
] as const;

/**
 * Serious and critical axe violations on the page as it is now, at both widths. `labelInName` also
 * runs axe's experimental label-content-name-mismatch (on the student screens; the back office's
 * /editvideo still fails it: its accordion rows are named by title alone).
 */
export async function scan(page: Page, screen: string, { labelInName = false } = {}): Promise<string[]> {
  const found: string[] = [];
  const original = page.viewportSize();
  for (const [label, width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.mouse.move(0, 0); // no hover highlight under the scan
    await page.waitForTimeout(200);
    const { violations } = await new AxeBuilder({ page })
      .options({
        // Experimental in axe, so off unless asked (Lighthouse reports it): a control whose accessible
        // name lacks the words it shows, which a speech user says to press it (WCAG 2.5.3).
        rules: { 'label-content-name-mismatch': { enabled: labelInName } },
        // Every rule still runs on every node; axe only skips building selectors and details for
        // the passes and the incomplete, which nothing here reads (axe's documented speed-up).
        resultTypes: ['violations'],
      })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      // In the page itself: the default opens a blank tab (a renderer of its own) per scan to merge
      // the frames' results, and injects axe there too; Lectern's screens have no frames.
      .setLegacyMode()
      .analyze();
    for (const v of violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      const where = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} (${[...n.any, ...n.all].map((c) => c.message).join('; ')})`)
        .join(' | ');
      found.push(`${screen} (${label}): ${v.id} [${v.impact}] ${v.help} at ${where}`);
    }
  }
  if (original) await page.setViewportSize(original);
  return found;
}
