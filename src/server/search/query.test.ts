import { describe, expect, it } from 'vitest';
import { parseQuery, snippetOf } from './query';

const text = (t: string) => ({ text: t, match: false });
const match = (t: string) => ({ text: t, match: true });

describe("a hit's snippet", () => {
  it('marks the matched letters themselves after letters whose lower case is longer (İ lowers to i and a dot)', () => {
    expect(snippetOf('İİİ in İzmir: React hooks', parseQuery('react').marks)).toEqual([
      text('İİİ in İzmir: '),
      match('React'),
      text(' hooks'),
    ]);
    expect(snippetOf('Off to İstanbul now', parseQuery('İstanbul').marks)).toEqual([
      text('Off to '),
      match('İstanbul'),
      text(' now'),
    ]);
  });

  it('cuts its window around the match in the text as written, İ before it or not', () => {
    const long = `${'İ'.repeat(100)} useEffect ${'x'.repeat(100)}`;
    const pieces = snippetOf(long, parseQuery('useEffect').marks);
    expect(pieces.filter((p) => p.match)).toEqual([match('useEffect')]);
    expect(pieces[0]!.text).toMatch(/^…İ+ $/);
    expect(pieces.at(-1)!.text).toMatch(/^ x+…$/);
  });

  it('keeps « and » of the text as text: only the matches are marked', () => {
    expect(snippetOf('He said «use the hook» in React', parseQuery('react').marks)).toEqual([
      text('He said «use the hook» in '),
      match('React'),
    ]);
    expect(snippetOf('a «b» c', parseQuery('«b»').marks)).toEqual([text('a '), match('«b»'), text(' c')]);
  });
});
