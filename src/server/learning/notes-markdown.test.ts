import { describe, expect, it } from 'vitest';
import type { CourseNotesResponse } from '../../contract/learning';
import { notesMarkdown } from './notes-markdown';

const HOSTILE =
  '<img src=x onerror=alert(1)> [click](javascript:alert(1)) ![i](http://x/t.png) *b* &lt; C# #';

function exportOf(course: string, title: string, ...texts: string[]): string {
  const notes = texts.map((text, i) => ({
    _id: `n${i}`,
    videoId: 'v',
    t: 65 + i,
    text,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }));
  const all: CourseNotesResponse = {
    course: { _id: 'c', name: course },
    videos: [{ _id: 'v', title, position: 0, notes }],
  };
  return notesMarkdown(all);
}

describe("the notes' Markdown export", () => {
  it('writes course and lecture titles as literal characters: no HTML, link, image, emphasis or entity survives', () => {
    const md = exportOf(HOSTILE, HOSTILE, 'fine');
    const escaped =
      '\\<img src=x onerror=alert(1)\\> \\[click\\](javascript:alert(1)) \\!\\[i\\](http://x/t.png) \\*b\\* \\&lt; C\\# \\#';
    expect(md.split('\n').slice(0, 4)).toEqual([`# ${escaped}: my notes`, '', `## ${escaped}`, '']);
  });

  it("writes a note's text as the app shows it: code spans and blocks kept, the rest literal, no line starting a block", () => {
    const text = [
      'Use `<b>` here, not <b>bold</b> or [a](javascript:x)',
      '# not a heading',
      '> not a quote',
      '- not a list',
      '1. not a list',
      '```html',
      '<script>kept as code</script>',
      '```',
      'after',
    ].join('\n');
    expect(exportOf('Course', 'Lecture', text)).toBe(
      [
        '# Course: my notes',
        '',
        '## Lecture',
        '',
        '- **1:05** Use `<b>` here, not \\<b\\>bold\\</b\\> or \\[a\\](javascript:x)',
        '  \\# not a heading',
        '  \\> not a quote',
        '  \\- not a list',
        '  1\\. not a list',
        '  ```',
        '  <script>kept as code</script>',
        '  ```',
        '  after',
        '',
      ].join('\n'),
    );
  });

  it('fences a code block longer than any run of backticks inside it, and starts a note that opens with one on its own line', () => {
    const md = exportOf('Course', 'Lecture', '```\nconst s = ```;\n  ```\n```');
    expect(md).toContain(['- **1:05**', '  ````', '  const s = ```;', '    ```', '  ````'].join('\n'));
  });
});
