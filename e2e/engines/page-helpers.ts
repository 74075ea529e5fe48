import type { EngineDriver } from './driver';

export type Kind = 'field' | 'button' | 'link' | 'any';

let marks = 0;

/**
 * Finds a visible element by what a person reads (its label, aria-label or text) and gives it a
 * `data-journey` mark, so every driver can then act on a plain CSS selector. Waits for it.
 */
export async function find(d: EngineDriver, kind: Kind, name: RegExp, timeoutMs = 20_000): Promise<string> {
  const id = `j${++marks}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await d.evaluate(
      (kind: string, source: string, flags: string, id: string) => {
        const re = new RegExp(source, flags);
        const visible = (el: Element) => (el as HTMLElement).getClientRects().length > 0;
        const nameOf = (el: Element): string => {
          const aria = el.getAttribute('aria-label');
          if (aria) return aria;
          const by = el.getAttribute('aria-labelledby');
          if (by)
            return by
              .split(' ')
              .map((i) => document.getElementById(i)?.textContent ?? '')
              .join(' ');
          if (el.id) {
            const label = document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
            if (label) return label.textContent ?? '';
          }
          return el.textContent ?? '';
        };
        const selectors: Record<string, string> = {
          field: 'input, textarea',
          button: 'button, [role=button], [role=menuitem], [role=option], a',
          link: 'a',
          any: 'h1, h2, h3, p, span, div, a, button, label',
        };
        for (const el of Array.from(document.querySelectorAll(selectors[kind]!))) {
          if (!visible(el)) continue;
          if (re.test(nameOf(el).replace(/\s+/g, ' ').trim())) {
            el.setAttribute('data-journey', id);
            return true;
          }
        }
        return false;
      },
      kind,
      name.source,
      name.flags,
      id,
    );
    if (found) return `[data-journey="${id}"]`;
    if (Date.now() > deadline) throw new Error(`no visible ${kind} named ${name} on ${await d.url()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A WebDriver session that ended (or hung) under the journey: the browser, not the page, failed. */
export const BROWSER_GONE =
  /invalid session id|session deleted|no such window|browsing context has been discarded|Request timed out/i;

/** A failed wait taken as "no" (false), unless the browser went away: that fails the journey. */
export function falseUnlessGone(error: unknown): false {
  if (BROWSER_GONE.test(String(error))) throw error;
  return false;
}

/**
 * Polls `probe` until it answers something truthy; fails naming `what`. A browser that went away
 * fails it at once: polling a hung WebKitGTK costs a minute a command (t4, 2026-11-30: two minutes).
 */
export async function until<T>(what: string, probe: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      last = value;
    } catch (error) {
      if (BROWSER_GONE.test(String(error))) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} (last: ${String(last)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The page's visible text. */
export const pageText = (d: EngineDriver) => d.evaluate(() => document.body.innerText);

/**
 * Starts recording the text the page renders from now on (`recordShown` before each click): a toast
 * lives 3 s, and a poll of a loaded WebKit once missed "Password reset successful" (86 polls in 20 s,
 * the toast never among them). A full page load ends the record; then only the page's text counts.
 */
const recordShown = (d: EngineDriver) =>
  d.evaluate(() => {
    const w = window as unknown as { __shown?: { text: string; observer: MutationObserver } };
    w.__shown?.observer.disconnect();
    const shown = {
      text: '',
      observer: new MutationObserver((records) => {
        for (const record of records)
          for (const node of Array.from(record.addedNodes))
            shown.text += ` ${node instanceof HTMLElement ? node.innerText : (node.textContent ?? '')}`;
      }),
    };
    shown.observer.observe(document.body, { childList: true, subtree: true });
    w.__shown = shown;
  });

/** Waits until the page shows `text`, or showed it since the last click (a toast that came and went). */
export const seeText = (d: EngineDriver, text: RegExp) =>
  until(`the page shows ${text}`, async () => {
    const shown = await d.evaluate(
      () => (window as unknown as { __shown?: { text: string } }).__shown?.text ?? '',
    );
    return text.test(shown) || text.test(await pageText(d));
  });

/** Waits until the address matches. */
export const atUrl = (d: EngineDriver, url: RegExp) =>
  until(`the address matches ${url}`, async () => url.test(await d.url()));

/**
 * Finds (see `find`) and acts; a re-render may replace the element in between, so it finds again.
 * Firefox says so as "Node is either not clickable or not an Element" (seen on the sign-in page as
 * its session check answered, in a clean-clone run).
 */
async function onFound(d: EngineDriver, kind: Kind, name: RegExp, act: (selector: string) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    const selector = await find(d, kind, name);
    try {
      return await act(selector);
    } catch (error) {
      const replaced = /not found|No element|wasn't found|stale|detached|not clickable or not an Element/i;
      if (attempt >= 3 || !replaced.test(String(error))) throw error;
    }
  }
}

export const fillIn = (d: EngineDriver, kind: Kind, name: RegExp, text: string) =>
  onFound(d, kind, name, (selector) => d.fill(selector, text));

/** `text` as a pattern that matches it to the letter (a title with brackets or a question mark). */
export const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const clickOn = (d: EngineDriver, kind: Kind, name: RegExp) =>
  onFound(d, kind, name, async (selector) => {
    await recordShown(d);
    await d.click(selector);
  });

/**
 * Clicks until `took` holds, as a person clicks again when nothing happened (WebKit was seen to lose
 * a click during a re-render): up to three clicks, 5 s each. Only for clicks that count once.
 */
export async function clickUntil(what: string, click: () => Promise<void>, took: () => Promise<boolean>) {
  for (let attempt = 1; ; attempt++) {
    await click();
    if (await until(what, took, 5_000).catch(falseUnlessGone)) return;
    if (attempt >= 3) throw new Error(`${what}: not after three clicks`);
  }
}
