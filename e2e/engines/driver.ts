/**
 * What a journey needs from a browser, whichever engine and automation protocol drives it. Firefox
 * ESR is driven by puppeteer-core over WebDriver BiDi, WebKitGTK by webdriverio over WebDriver.
 */
export type Key = 'Space' | 'ArrowLeft' | 'ArrowRight' | 'c' | 'n';

/**
 * `fn` as a script any driver can send: tsx (esbuild) names inner functions with a `__name` helper
 * that exists in Node, not in the page, so the page gets a stand-in.
 */
export function pageScript(fn: (...args: never[]) => unknown, args: unknown[]): string {
  return `const __name = (f) => f; return (${fn.toString()}).apply(null, ${JSON.stringify(args)});`;
}

export interface EngineDriver {
  readonly engine: 'firefox' | 'webkit';
  goto(url: string): Promise<void>;
  /** The page's address now. */
  url(): Promise<string>;
  /** Types `text` into the element (after focusing it), key by key, as a person would. */
  fill(selector: string, text: string): Promise<void>;
  click(selector: string): Promise<void>;
  /** A key to the focused element. */
  press(key: Key): Promise<void>;
  /** Picks a local file in an `<input type=file>`. */
  chooseFile(selector: string, file: string): Promise<void>;
  /** Runs `fn(...args)` in the page; a promise it returns is awaited. */
  evaluate<T, A extends unknown[]>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<T>;
  /** Resizes the window's viewport (CSS px). */
  resize(width: number, height: number): Promise<void>;
  /** A PNG of the viewport. */
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}
