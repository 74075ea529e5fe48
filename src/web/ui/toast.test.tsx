import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../test-utils';
import { toast } from './toast';

describe('toast', () => {
  it('shows the message with a close button a screen reader can name', async () => {
    renderRoute(<p>page</p>);
    toast.error('Backup failed: the target cannot be written.');
    expect(await screen.findByText('Backup failed: the target cannot be written.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });
});
