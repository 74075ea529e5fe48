import { fireEvent, screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { TEXT_MAX_CHARS } from '../../contract/learning';
import { renderRoute } from '../test-utils';
import { LearningTextarea } from './LearningTextarea';

describe('LearningTextarea', () => {
  it('is a named text box limited to TEXT_MAX_CHARS that hands on the text typed', () => {
    const onValue = vi.fn();
    const ref = createRef<HTMLTextAreaElement>();
    renderRoute(<LearningTextarea ref={ref} aria-label="Note text" value="" onValue={onValue} />);
    const box = screen.getByRole('textbox', { name: 'Note text' });
    expect(box).toHaveAttribute('maxlength', String(TEXT_MAX_CHARS));
    expect(ref.current).toBe(box);
    fireEvent.change(box, { target: { value: 'a thought' } });
    expect(onValue).toHaveBeenCalledWith('a thought');
  });
});
