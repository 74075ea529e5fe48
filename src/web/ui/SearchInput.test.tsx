import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../test-utils';
import { SearchInput } from './SearchInput';

function Field({ showLabel }: { showLabel?: boolean }) {
  const [value, setValue] = useState('');
  return (
    <>
      <SearchInput label="Search the transcript" showLabel={showLabel} value={value} onChange={setValue} />
      <output>{value}</output>
    </>
  );
}

describe('SearchInput', () => {
  it('hands back what is typed and empties on Escape', async () => {
    const user = userEvent.setup();
    renderRoute(<Field />);
    const box = await screen.findByRole('textbox', { name: 'Search the transcript' });
    await user.type(box, 'scope');
    expect(screen.getByRole('status')).toHaveTextContent('scope');
    await user.keyboard('{Escape}');
    expect(box).toHaveValue('');
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('shows its name only when asked to; screen readers have it either way', async () => {
    const { unmount } = renderRoute(<Field />);
    await screen.findByRole('textbox', { name: 'Search the transcript' });
    expect(screen.queryByText('Search the transcript')).toBeNull();
    unmount();
    renderRoute(<Field showLabel />);
    await screen.findByRole('textbox', { name: 'Search the transcript' });
    expect(screen.getByText('Search the transcript')).toBeVisible();
  });
});
