import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { pageScript, type EngineDriver } from './driver';

const KEYS = { Space: ' ', ArrowLeft: 'ArrowLeft', ArrowRight: 'ArrowRight', c: 'KeyC', n: 'KeyN' } as const;

/** Debian's Firefox ESR, headless, driven by puppeteer-core over WebDriver BiDi (no downloaded browser). */
export async function launchFirefox(): Promise<EngineDriver> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: '/usr/bin/firefox-esr',
    headless: true,
    extraPrefsFirefox: { 'media.autoplay.default': 0, 'media.autoplay.blocking_policy': 0 },
  });
  const page: Page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  return {
    engine: 'firefox',
    goto: async (url) => void (await page.goto(url)),
    url: async () => page.url(),
    async fill(selector, text) {
      await page.click(selector);
      await page.type(selector, text);
    },
    click: (selector) => page.click(selector),
    press: (key) => page.keyboard.press(KEYS[key]),
    async chooseFile(selector, file) {
      const input = await page.$(selector);
      if (!input) throw new Error(`no ${selector}`);
      await (input as unknown as { uploadFile(f: string): Promise<void> }).uploadFile(file);
    },
    evaluate: (fn, ...args) => page.evaluate(`(async () => { ${pageScript(fn as never, args)} })()`) as never,
    resize: (width, height) => page.setViewport({ width, height }),
    screenshot: async (file) => void (await page.screenshot({ path: file as `${string}.png` })),
    close: () => browser.close(),
  };
}
