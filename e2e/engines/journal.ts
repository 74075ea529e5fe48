import type { EngineDriver } from './driver';

/**
 * The driver's last commands, for a browser that hangs: a WebKitGTK web process stuck in GStreamer
 * answers nothing, so the page cannot say where it was; the commands sent before it can.
 */
export interface Journal {
  driver: EngineDriver;
  /** The last commands, oldest first, a repeated one counted once with its repeats. */
  last(): string[];
}

const KEEP = 12;

export function journaled(driver: EngineDriver, started = Date.now()): Journal {
  const entries: { at: number; what: string; repeats: number }[] = [];
  const note = (what: string) => {
    const at = Date.now() - started;
    const previous = entries.at(-1);
    if (previous?.what === what) {
      previous.repeats++;
      previous.at = at;
      return;
    }
    entries.push({ at, what, repeats: 1 });
    if (entries.length > KEEP) entries.shift();
  };
  const logged =
    <A extends unknown[], R>(
      name: string,
      fn: (...args: A) => Promise<R>,
      describe = (...args: A) => String(args[0] ?? ''),
    ) =>
    (...args: A): Promise<R> => {
      note(`${name} ${describe(...args)}`.trim());
      return fn(...args);
    };
  const wrapped: EngineDriver = {
    engine: driver.engine,
    goto: logged('goto', driver.goto),
    url: driver.url,
    fill: logged('fill', driver.fill),
    click: logged('click', driver.click),
    press: logged('press', driver.press),
    chooseFile: logged('chooseFile', driver.chooseFile),
    evaluate: ((fn: (...args: unknown[]) => unknown, ...args: unknown[]) => {
      note(`evaluate ${fn.toString().replace(/\s+/g, ' ').slice(0, 70)}`);
      return driver.evaluate(fn, ...args);
    }) as EngineDriver['evaluate'],
    resize: logged('resize', driver.resize, (w, h) => `${w}x${h}`),
    screenshot: logged('screenshot', driver.screenshot),
    close: driver.close,
  };
  return {
    driver: wrapped,
    last: () =>
      entries.map((e) => `${(e.at / 1000).toFixed(1)} s ${e.what}${e.repeats > 1 ? ` (x${e.repeats})` : ''}`),
  };
}
