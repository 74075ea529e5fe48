/**
 * `text` lower-cased, and for each of its code units the span of `text` it comes from: a letter's
 * lower case may be longer than the letter (İ is i and a combining dot), so indices differ.
 */
function foldCase(text: string): { lower: string; from: number[]; to: number[] } {
  let lower = '';
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  for (const letter of text) {
    const folded = letter.toLowerCase();
    lower += folded;
    for (let i = 0; i < folded.length; i++) {
      from.push(at);
      to.push(at + letter.length);
    }
    at += letter.length;
  }
  return { lower, from, to };
}

/**
 * Where `needles` (lower case) occur in `text` whatever its case, as [start, end) spans of `text`
 * as written: the longest needles first, none inside another's span, in the order of the text.
 */
export function matchSpans(text: string, needles: readonly string[]): [number, number][] {
  const { lower, from, to } = foldCase(text);
  const spans: [number, number][] = [];
  for (const needle of [...needles].sort((a, b) => b.length - a.length)) {
    if (!needle) continue;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      const span: [number, number] = [from[at]!, to[at + needle.length - 1]!];
      if (!spans.some(([s, e]) => span[0] < e && span[1] > s)) spans.push(span);
    }
  }
  return spans.sort((a, b) => a[0] - b[0]);
}
