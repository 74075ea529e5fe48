import { Code, Text } from '@mantine/core';
import { parseMarkup } from '../../contract/learning';
import classes from './Learning.module.css';

/**
 * Text of a note, question or answer: plain text where ``` fences a code block and `backticks`
 * mark inline code. Everything is rendered as React text nodes: HTML, `javascript:` links and the
 * like stay inert characters (never dangerouslySetInnerHTML).
 */
export function Markup({ text, size = 'sm' }: { text: string; size?: 'xs' | 'sm' }) {
  return (
    <div className={classes.markup}>
      {parseMarkup(text).map((block, i) =>
        block.kind === 'code' ? (
          <Code key={i} block className={classes.codeBlock}>
            {block.text}
          </Code>
        ) : (
          <Text key={i} size={size} className={classes.text}>
            {block.parts.map((part, j) => (part.code ? <Code key={j}>{part.text}</Code> : part.text))}
          </Text>
        ),
      )}
    </div>
  );
}
