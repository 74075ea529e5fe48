/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges,
 * `by (…)` groupings, numbers and function names (an identifier before `(`) are taken out.
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+\w+/g, ' ')
    .replace(/\b\d+(\.\d+)?(e[+-]?\d+)?\b/gi, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  // A whole identifier, then a look at what follows it (a function name is followed by a parenthesis).
  const names = [...bare.matchAll(/[A-Za-z_:][\w:]*/g)]
    .filter((m) => !/^\s*\(/.test(bare.slice(m.index + m[0].length)))
    .map((m) => m[0]);
  return names.filter((n) => !/^(and|or|unless|bool|offset|le|inf|nan)$/i.test(n) && !/^\d/.test(n));
}
