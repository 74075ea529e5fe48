import { formatMoment, parseMarkup, type CourseNotesResponse } from '../../contract/learning';

/**
 * Markdown of a course's notes: a heading per lecture, a bullet per note at its moment. Titles and
 * text are written as the literal characters the app shows (HTML, links, images, emphasis and
 * entities escaped: a title is staff's and a Markdown viewer would render it); a note keeps its
 * code spans and blocks, the app's only markup.
 */
export function notesMarkdown(notesOf: CourseNotesResponse): string {
  const lines = [`# ${literal(oneLine(notesOf.course.name))}: my notes`, ''];
  for (const video of notesOf.videos) {
    lines.push(`## ${literal(oneLine(video.title))}`, '');
    for (const note of video.notes) {
      const body = noteLines(note.text);
      const moment = `- **${formatMoment(note.t)}**`;
      // A fence opens only at the start of a line: a note that begins with one gets the moment alone.
      if (!body.length || isFence(body[0]!)) lines.push(moment, ...body.map(indent));
      else lines.push(`${moment} ${body[0]}`, ...body.slice(1).map(indent));
    }
    lines.push('');
  }
  return lines.join('\n');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const indent = (line: string) => `  ${line}`;
const isFence = (line: string) => /^`{3,}/.test(line);

/**
 * `text` with every character Markdown reads as markup backslash-escaped, and a line's opening
 * `-`, `+`, `=` or `1.` too, so no line starts a list, rule or heading of its own.
 */
function literal(text: string): string {
  return text
    .replace(/[\\`*_[\]<>&!~|#]/g, '\\$&')
    .replace(/^(\s*)([-+=])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}

/** A note's lines in Markdown: code as code (a fence longer than any run of backticks inside), the rest literal. */
function noteLines(text: string): string[] {
  return parseMarkup(text).flatMap((block) => {
    if (block.kind === 'text')
      return block.parts
        .map((part) => (part.code ? `\`${part.text}\`` : literal(part.text)))
        .join('')
        .split('\n');
    const longest = Math.max(2, ...(block.text.match(/`+/g) ?? []).map((run) => run.length));
    const fence = '`'.repeat(longest + 1);
    return [fence, ...block.text.split('\n'), fence];
  });
}

/** A file name for the export: the course's name in safe characters. */
export function notesFileName(courseName: string): string {
  const slug = courseName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${slug || 'course'}-notes.md`;
}
