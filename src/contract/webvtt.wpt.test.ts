import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWebVtt } from './webvtt';

/**
 * The web-platform-tests WebVTT file-parsing cases (webvtt/parsing/file-parsing, vendored under
 * __fixtures__/wpt-webvtt with their licence): each case's .vtt read as the player reads a caption
 * file and compared, cue by cue and field by field, with what a browser made of the same file
 * (browser-cues.json, recorded in Chromium by scripts/record-wpt-webvtt.mjs). The case's own
 * assertions (from its .test source) run too, for the table: a few fail in browsers as well.
 *
 * Lectern draws no WebVTT regions (the spec's scrolling roll-up boxes): a cue's region is not
 * compared, and an upstream assertion about one is counted "n/a" rather than passed or failed.
 */
const DIR = path.join(import.meta.dirname, '__fixtures__', 'wpt-webvtt');
const BROWSER = JSON.parse(readFileSync(path.join(DIR, 'browser-cues.json'), 'utf8')) as {
  browser: string;
  cases: Record<string, Record<string, unknown>[] | null>;
};

/** The first field where our cues differ from the browser's ('' when they agree). */
function difference(
  ours: Record<string, unknown>[] | null,
  browser: Record<string, unknown>[] | null,
): string {
  if (ours === null || browser === null)
    return ours === browser ? '' : `refused by ${ours ? 'the browser' : 'us'}`;
  if (ours.length !== browser.length) return `${ours.length} cues, the browser ${browser.length}`;
  for (const [i, cue] of browser.entries()) {
    for (const [field, value] of Object.entries(cue)) {
      if (field === 'region') continue;
      // JSON keeps no -0 (line:-0): numbers compare as numbers.
      if (ours[i]![field] !== value)
        return `cue ${i} ${field}: ${JSON.stringify(ours[i]![field])} vs ${JSON.stringify(value)}`;
    }
  }
  return '';
}

/** Stands for any region and any of its properties: comparisons with it are counted, not judged. */
const REGION: object = new Proxy(
  {},
  { get: (_, key) => (key === Symbol.toPrimitive ? () => 'region' : REGION) },
);

class AssertionFailure extends Error {}

function runCase(name: string) {
  const source = readFileSync(path.join(DIR, `${name}.test`), 'utf8');
  const assertions = source.split('\n\n').slice(1).join('\n\n').split('===\n')[0]!;
  const expected = /assert_equals\(cues\.length, (\d+)/.exec(assertions)?.[1];
  const read = readWebVtt(readFileSync(path.join(DIR, `${name}.vtt`), 'utf8'));
  const cues = (read ?? []).map((cue) => ({
    id: cue.id,
    startTime: cue.start,
    endTime: cue.end,
    text: cue.text,
    vertical: cue.settings.vertical,
    line: cue.settings.line,
    snapToLines: cue.settings.snapToLines,
    lineAlign: cue.settings.lineAlign,
    position: cue.settings.position,
    positionAlign: cue.settings.positionAlign,
    size: cue.settings.size,
    align: cue.settings.align,
    region: REGION,
  }));
  const browser = BROWSER.cases[name] ?? null;
  const differs = difference(read === null ? null : cues, browser);
  let notApplicable = 0;
  let checked = 0;
  const judge = (ok: boolean, message: string) => {
    if (!ok) throw new AssertionFailure(message);
  };
  const harness = {
    assert_equals(actual: unknown, wanted: unknown, message = '') {
      if (actual === REGION || wanted === REGION) return void notApplicable++;
      checked++;
      judge(
        Object.is(actual, wanted) || actual === wanted,
        `${message} expected ${String(wanted)}, got ${String(actual)}`,
      );
    },
    assert_not_equals(actual: unknown, other: unknown, message = '') {
      if (actual === REGION || other === REGION) return void notApplicable++;
      checked++;
      judge(actual !== other, `${message} got ${String(actual)}`);
    },
    assert_true(value: unknown, message = '') {
      checked++;
      judge(value === true, `${message} expected true`);
    },
    assert_false(value: unknown, message = '') {
      checked++;
      judge(value === false, `${message} expected false`);
    },
  };
  let failure = '';
  try {
    // The case's assertions are upstream test code, run as the browser harness runs them.
    new Function('cues', ...Object.keys(harness), assertions)(cues, ...Object.values(harness));
  } catch (error) {
    failure = error instanceof AssertionFailure ? error.message : `threw ${String(error)}`;
  }
  return {
    case: name,
    'wpt expects': expected === undefined ? '?' : Number(expected),
    browser: browser === null ? 'refused' : browser.length,
    ours: read === null ? 'refused' : cues.length,
    'same as browser': differs ? `no: ${differs.slice(0, 40)}` : 'yes',
    'wpt asserts': `${failure ? `fail: ${failure.trim().slice(0, 32)}` : 'pass'} (${checked} checked, ${notApplicable} region n/a)`,
    // A case agrees when our cues are the browser's, or pass every assertion the case makes.
    agree: !differs || !failure ? 'yes' : 'no',
  };
}

describe('web-platform-tests WebVTT file parsing', () => {
  it('agrees with the browsers on at least 30 of the 31 cases', () => {
    const names = readdirSync(DIR)
      .filter((file) => file.endsWith('.test'))
      .map((file) => file.slice(0, -'.test'.length))
      .sort();
    expect(names).toHaveLength(31);
    const table = names.map(runCase);
    console.table(table);
    const agreeing = table.filter((row) => row.agree === 'yes').length;
    const sameAsBrowser = table.filter((row) => row['same as browser'] === 'yes').length;
    const passing = table.filter((row) => row['wpt asserts'].startsWith('pass')).length;
    console.log(
      `WPT WebVTT file parsing: ${agreeing} of ${table.length} agree; ${sameAsBrowser} give exactly ${BROWSER.browser}'s cues; ${passing} pass the upstream assertions`,
    );
    expect(agreeing).toBeGreaterThanOrEqual(30);
    // The browser itself fails a few upstream assertions (newlines, nulls): matching it matters more.
    expect(sameAsBrowser).toBeGreaterThanOrEqual(29);
  });
});
