import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { remote } from 'webdriverio';
import { freePort } from '../../test/support/processes';
import { pageScript, type EngineDriver } from './driver';

const KEYS = { Space: ' ', ArrowLeft: '\uE012', ArrowRight: '\uE014', c: 'c', n: 'n' } as const;

/** Debian's webkit2gtk-driver ships MiniBrowser beside the library (webkit2gtk-4.0 or 4.1). */
function miniBrowser(): string {
  const lib = '/usr/lib/x86_64-linux-gnu';
  const dir = readdirSync(lib).find((d) => /^webkit2gtk-4\.\d$/.test(d));
  if (!dir) throw new Error('WebKitGTK not found: apt-get install webkit2gtk-driver');
  return `${lib}/${dir}/MiniBrowser`;
}

/**
 * The WebDriver process groups still running. Detached (their own group, so a stop takes the X
 * server and the web process with it), they would outlive this process killed by a signal or a
 * crash, and a left web process spins on a core: stopped on the way out.
 */
const running = new Set<() => void>();
process.once('exit', () => running.forEach((stop) => stop()));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/**
 * WebKitGTK (Safari's engine): Debian's WebKitWebDriver starts its MiniBrowser on a private X
 * server (xvfb-run), driven by webdriverio over classic WebDriver.
 */
export async function launchWebKit(): Promise<EngineDriver> {
  const port = await freePort();
  // What the driver, MiniBrowser and its web process print (GStreamer, crashes), for a failure.
  mkdirSync('test-results', { recursive: true });
  const log = openSync(`test-results/webkit-driver-${port}.log`, 'w');
  const driver = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1600x1000x24', 'WebKitWebDriver', `--port=${port}`],
    {
      stdio: ['ignore', log, log],
      detached: true,
    },
  );
  closeSync(log); // the driver has its own copy
  const stopDriver = () => {
    running.delete(stopDriver);
    try {
      process.kill(-driver.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  running.add(stopDriver);
  try {
    const deadline = Date.now() + 20_000;
    while (
      !(await fetch(`http://127.0.0.1:${port}/status`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error('WebKitWebDriver did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const browser = await remote({
      hostname: '127.0.0.1',
      port,
      path: '/',
      logLevel: 'error',
      // A WebKitGTK web process that hangs leaves a command unanswered: fail it after a minute (no
      // navigation or script here takes that long) rather than webdriverio's 2 min x 4 tries.
      connectionRetryTimeout: 60_000,
      connectionRetryCount: 0,
      capabilities: {
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': { binary: miniBrowser(), args: ['--automation'] },
      } as WebdriverIO.Capabilities,
    });
    await browser.setWindowSize(1280, 800);
    return {
      engine: 'webkit',
      goto: (url) => browser.url(url).then(() => undefined),
      url: () => browser.getUrl(),
      async fill(selector, text) {
        const element = browser.$(selector);
        await element.click();
        await element.addValue(text);
      },
      click: (selector) => browser.$(selector).click(),
      press: (key) => browser.keys(KEYS[key]),
      async chooseFile(selector, file) {
        // WebKitWebDriver refuses keys to a hidden file input (a file dialog cannot be automated):
        // show the input Mantine hides behind its button, then give it the file.
        await browser.execute((sel: string) => {
          const input = document.querySelector<HTMLInputElement>(sel)!;
          input.style.display = 'block';
        }, selector);
        await browser.$(selector).addValue(file);
        await browser.execute((sel: string) => {
          document.querySelector<HTMLInputElement>(sel)!.style.display = 'none';
        }, selector);
      },
      evaluate: (fn, ...args) => browser.execute(pageScript(fn as never, args)) as never,
      async resize(width, height) {
        await browser.setWindowSize(width, height);
      },
      screenshot: (file) => browser.saveScreenshot(file).then(() => undefined),
      async close() {
        await browser.deleteSession().catch(() => {});
        stopDriver();
      },
    };
  } catch (error) {
    stopDriver();
    throw error;
  }
}
