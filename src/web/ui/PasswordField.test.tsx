import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../test-utils';
import { PasswordField } from './PasswordField';

function Field({ label }: { label: string }) {
  const [value, setValue] = useState('');
  return (
    <>
      <PasswordField label={label} value={value} onValue={setValue} />
      <output>{value}</output>
    </>
  );
}

describe('PasswordField', () => {
  it('names its show/hide button after the field and hands back what is typed', async () => {
    const user = userEvent.setup();
    renderRoute(<Field label="Confirm password" />);
    await user.type(await screen.findByLabelText('Confirm password'), 'Better@Pass1');
    expect(screen.getByRole('status')).toHaveTextContent('Better@Pass1');
    expect(screen.getByRole('button', { name: 'Show or hide confirm password' })).toBeInTheDocument();
  });
});
