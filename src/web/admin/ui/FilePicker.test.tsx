import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../test-utils';
import { FilePicker } from './FilePicker';

function Picker({ what }: { what?: string }) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <>
      <FilePicker icon={IconFileText} what={what} label="Caption file" value={file} onChange={setFile} />
      <output>{file?.name ?? 'none'}</output>
    </>
  );
}

describe('FilePicker', () => {
  it('takes one file and offers a clear button screen readers can name', async () => {
    const user = userEvent.setup();
    const { container } = renderRoute(<Picker />);
    await screen.findByText('Caption file');
    await user.upload(container.querySelector('input[type=file]')!, new File(['WEBVTT'], 'en.vtt'));
    expect(screen.getByRole('status')).toHaveTextContent('en.vtt');
    await user.click(screen.getByRole('button', { name: 'Remove the chosen file' }));
    expect(screen.getByRole('status')).toHaveTextContent('none');
  });

  it('names the clear button after what it holds', async () => {
    const user = userEvent.setup();
    const { container } = renderRoute(<Picker what="image" />);
    await screen.findByText('Caption file');
    await user.upload(container.querySelector('input[type=file]')!, new File(['x'], 'a.png'));
    expect(screen.getByRole('button', { name: 'Remove the chosen image' })).toBeInTheDocument();
  });
});
