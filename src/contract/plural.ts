/** A count with its word: "1 student", "2 students" (the words Lectern counts take an s). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
