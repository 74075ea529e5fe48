import { describe, expect, it } from 'vitest';
import { DEFAULT_CUE_SETTINGS } from './cues';
import { cueAt, parseCaptions, plainCueText, plainTextCue, readWebVtt, toWebVtt } from './webvtt';

const plain = DEFAULT_CUE_SETTINGS;

const SRT = `1
00:00:01,000 --> 00:00:03,500
Hello <i>class</i>

2
00:00:04,000 --> 00:00:06,000
{\\an8}Second line
continues
`;

describe('caption files', () => {
  it('reads SubRip and writes it as WebVTT', () => {
    const parsed = parseCaptions(SRT, 10);
    expect(parsed).toEqual({
      ok: true,
      cues: [
        { id: '', start: 1, end: 3.5, text: 'Hello <i>class</i>', plain: 'Hello class', settings: plain },
        {
          id: '',
          start: 4,
          end: 6,
          text: 'Second line\ncontinues',
          plain: 'Second line\ncontinues',
          settings: plain,
        },
      ],
    });
    if (!parsed.ok) return;
    expect(toWebVtt(parsed.cues)).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nHello <i>class</i>\n\n00:00:04.000 --> 00:00:06.000\nSecond line\ncontinues\n',
    );
  });

  it('reads WebVTT with ids, notes, settings, CRLF and a BOM, and round-trips', () => {
    const vtt =
      '\uFEFFWEBVTT - lecture\r\nKind: captions\r\n\r\nNOTE a comment\r\nover two lines\r\n\r\nintro\r\n01:02.250 --> 01:04.000 line:10% align:start\r\nFirst\r\n';
    const parsed = parseCaptions(vtt);
    expect(parsed).toEqual({
      ok: true,
      cues: [
        {
          id: 'intro',
          start: 62.25,
          end: 64,
          text: 'First',
          plain: 'First',
          settings: { ...plain, line: 10, snapToLines: false, align: 'start' },
        },
      ],
    });
    if (parsed.ok) expect(parseCaptions(toWebVtt(parsed.cues))).toEqual(parsed);
  });

  it('keeps ids and every cue setting as structure, and writes them back', () => {
    const vtt =
      'WEBVTT\n\nq1\n00:00:01.000 --> 00:00:02.000 line:-2 position:30%,line-left size:40% align:end vertical:rl\nA\n\n' +
      '00:00:03.000 --> 00:00:04.000 line:80%,end\nB\n';
    const parsed = parseCaptions(vtt);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.cues.map((c) => [c.id, c.settings])).toEqual([
      [
        'q1',
        {
          vertical: 'rl',
          line: -2,
          snapToLines: true,
          lineAlign: 'start',
          position: 30,
          positionAlign: 'line-left',
          size: 40,
          align: 'end',
        },
      ],
      ['', { ...plain, line: 80, snapToLines: false, lineAlign: 'end' }],
    ]);
    expect(toWebVtt(parsed.cues)).toBe(
      'WEBVTT\n\nq1\n00:00:01.000 --> 00:00:02.000 vertical:rl line:-2 position:30%,line-left size:40% align:end\nA\n\n' +
        '00:00:03.000 --> 00:00:04.000 line:80%,end\nB\n',
    );
    expect(parseCaptions(toWebVtt(parsed.cues))).toEqual(parsed);
  });

  it('decodes every HTML character reference, not only the few WebVTT names', () => {
    const parsed = parseCaptions(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nCaf&eacute; &mdash; 3&nbsp;&lt;&nbsp;4 &hellip; &#x263A; &#169; <b>&amp;</b> &#60;i&#62; &amp;#169;\n',
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.cues[0]!.plain).toBe('Café — 3\u00A0<\u00A04 … ☺ © & <i> &#169;');
    // Stored as written: the file stays valid WebVTT.
    expect(toWebVtt(parsed.cues)).toContain('Caf&eacute; &mdash;');
  });

  it('writes plain text (machine speech) as cues that read back as the same text', () => {
    const cues = [
      plainTextCue(0.5, 2, 'use <T> & keep -> it'),
      plainTextCue(2, 4.25, 'two\n\nlines --> here\n'),
    ];
    const parsed = parseCaptions(toWebVtt(cues));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.cues.map((c) => [c.start, c.end, c.plain])).toEqual([
      [0.5, 2, 'use <T> & keep -> it'],
      [2, 4.25, 'two\nlines -> here'],
    ]);
  });

  it('takes a cue right under the header, as browsers do', () => {
    const parsed = parseCaptions('WEBVTT\n00:00:00.000 --> 00:00:01.000\ntext\n');
    expect(parsed.ok && parsed.cues.map((c) => [c.start, c.end, c.text])).toEqual([[0, 1, 'text']]);
  });

  it('reads stored files as the player does: a file a browser refuses gives null, not cues', () => {
    expect(readWebVtt('00:00:01.000 --> 00:00:02.000\nno header\n')).toBeNull();
    // Captions stored before cue settings were structured (a raw settings string) read the same way.
    const stored = 'WEBVTT\n\n00:00:08.000 --> 00:00:15.000 line:10%\nLES FONCTIONS\n';
    expect(readWebVtt(stored)).toEqual([
      {
        id: '',
        start: 8,
        end: 15,
        text: 'LES FONCTIONS',
        plain: 'LES FONCTIONS',
        settings: { ...plain, line: 10, snapToLines: false },
      },
    ]);
  });

  it.each([
    ['a bad timing', '1\n00:00:01,000 -> 00:00:02,000\nx\n', 2, 'expected a cue timing'],
    ['a missing number', 'hello\n00:00:01,000 --> 00:00:02,000\nx\n', 1, 'expected a cue number'],
    ['a cue ending before it starts', '1\n00:00:05,000 --> 00:00:02,000\nx\n', 2, 'end after it starts'],
    ['a cue with no text', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\n', 3, 'no text'],
    [
      'no blank line between cues',
      '1\n00:00:01,000 --> 00:00:02,000\nx\n00:00:03,000 --> 00:00:04,000\n',
      4,
      'blank line',
    ],
    ['an empty file', '', 1, 'no cues'],
    ['a wrong header', 'WEBVTTX\n\n', 1, 'header'],
    ['a later bad cue', `${SRT}\n3\n00:00:07,000 --> 00:0:08,000\nz\n`, 11, 'expected a cue timing'],
  ])('names the line of %s', (_, text, line, words) => {
    const parsed = parseCaptions(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.line).toBe(line);
    expect(parsed.message).toContain(`Line ${line}:`);
    expect(parsed.message).toContain(words);
  });

  it('reports a cue past the end of the video', () => {
    const parsed = parseCaptions(SRT, 5);
    expect(parsed).toMatchObject({ ok: false, line: 6 });
    if (!parsed.ok) expect(parsed.message).toContain('after the video ends (00:00:05.000)');
  });

  it('finds the cue at a time and strips markup', () => {
    const parsed = parseCaptions(SRT);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(cueAt(parsed.cues, 0.5)).toBeUndefined();
    expect(cueAt(parsed.cues, 1)?.start).toBe(1);
    expect(cueAt(parsed.cues, 3.5)).toBeUndefined();
    expect(plainCueText('<v Ann>Hi &amp; <b>bye</b>')).toBe('Hi & bye');
  });
});
