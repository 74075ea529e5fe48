import { describe, expect, it } from 'vitest';
import { formatMoment, parseMarkup, QuestionBody } from './learning';

describe('the tiny markup of notes and questions', () => {
  it('finds fenced code blocks and inline code; everything else is text', () => {
    expect(parseMarkup('Look:\n```js\nlet a = 1;\n```\nthen `a` <b>bold</b>')).toEqual([
      { kind: 'text', parts: [{ code: false, text: 'Look:' }] },
      { kind: 'code', text: 'let a = 1;' },
      {
        kind: 'text',
        parts: [
          { code: false, text: 'then ' },
          { code: true, text: 'a' },
          { code: false, text: ' <b>bold</b>' },
        ],
      },
    ]);
  });

  it('keeps HTML, javascript: links and an unclosed fence as plain characters', () => {
    const blocks = parseMarkup('<script>alert(1)</script> [x](javascript:alert(1))\n```\nnever closed');
    expect(blocks[0]).toEqual({
      kind: 'text',
      parts: [{ code: false, text: '<script>alert(1)</script> [x](javascript:alert(1))' }],
    });
    expect(blocks[1]).toEqual({ kind: 'code', text: 'never closed' });
  });

  it('formats moments and refuses bad input with the contract message', () => {
    expect(formatMoment(65)).toBe('1:05');
    expect(formatMoment(3725.9)).toBe('1:02:05');
    expect(QuestionBody.safeParse({ t: 1, title: 'x'.repeat(201) }).success).toBe(false);
    expect(QuestionBody.safeParse({ t: Number.NaN, title: 'ok' }).success).toBe(false);
    expect(QuestionBody.parse({ t: 1, title: ' ok ' })).toEqual({ t: 1, title: 'ok', text: '' });
  });
});
