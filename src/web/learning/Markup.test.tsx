import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../test-utils';
import { Markup } from './Markup';

const HOSTILE = [
  '<script>alert(1)</script><img src=x onerror=alert(1)> <a href="javascript:alert(1)">x</a>',
  '[click](javascript:alert(1)) <svg onload=alert(1)> <iframe src="https://evil.example"></iframe>',
  '`<b onclick=alert(1)>code</b>`',
  '```html',
  '<style>body{display:none}</style><form action=https://evil.example><input name=p></form>',
  '```',
].join('\n');

/** The elements Markup draws itself: its box, a paragraph per text block, code and code blocks. */
const MARKUP_ELEMENTS = new Set(['DIV', 'P', 'CODE', 'PRE']);

describe('Markup with hostile text', () => {
  it('creates no element but its own paragraphs and code: every tag, handler and link of the text stays characters', () => {
    renderRoute(
      <section aria-label="note">
        <Markup text={HOSTILE} />
      </section>,
      { path: '/' },
    );
    const box = screen.getByRole('region', { name: 'note' });
    const made = [...box.querySelectorAll('*')];
    expect(new Set(made.map((element) => element.tagName))).toEqual(MARKUP_ELEMENTS);
    expect(made.map((element) => element.tagName).filter((tag) => !MARKUP_ELEMENTS.has(tag))).toEqual([]);
    // No attribute but the class names Mantine gives its own elements (no handler, href or src).
    const attributes = made.flatMap((element) => element.getAttributeNames());
    expect(attributes.filter((name) => !/^(class|data-[a-z-]+|dir|style)$/.test(name))).toEqual([]);
    expect([...box.querySelectorAll('[style]')].map((e) => e.getAttribute('style'))).not.toContainEqual(
      expect.stringContaining('display'),
    );
    // The text is all there, as the characters it was.
    for (const piece of [
      '<script>alert(1)</script>',
      'onerror=alert(1)>',
      '[click](javascript:alert(1))',
      '<b onclick=alert(1)>code</b>',
      '<style>body{display:none}</style>',
    ])
      expect(box.textContent).toContain(piece);
  });
});
