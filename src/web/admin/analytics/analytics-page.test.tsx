import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { analyticsMessages } from '../../../contract/analytics';
import { renderRoute } from '../../test-utils';
import { analyticsPage } from './analytics-page';

/** A page of a pretend subject whose load answers `answer(id)`. */
function page(answer: (id: string) => Promise<{ name: string }>) {
  const useThing = (id: string) => useQuery({ queryKey: ['thing', id], queryFn: () => answer(id) });
  const Page = analyticsPage('thingId', useThing, ({ analytics }) => <h1>{analytics.name}</h1>, {
    loading: 'Loading thing analytics',
    cards: 3,
    chartHeight: 200,
  });
  renderRoute(<Page />, { path: '/thing/:thingId', url: '/thing/t1' });
}

describe('analyticsPage', () => {
  it('loads the subject named by the route and shows it', async () => {
    page(async (id) => ({ name: `Thing ${id}` }));
    expect(await screen.findByRole('heading', { name: 'Thing t1' })).toBeInTheDocument();
  });

  it('shows a named, busy placeholder while it loads', () => {
    page(() => new Promise(() => {}));
    const placeholder = screen.getByLabelText('Loading thing analytics');
    expect(placeholder).toHaveAttribute('aria-busy', 'true');
  });

  it('says the analytics failed to load, with Try again', async () => {
    page(() => Promise.reject(new Error('down')));
    expect(await screen.findByRole('button', { name: /try again/i })).toBeInTheDocument();
    expect(screen.getAllByText(analyticsMessages.loadFailed).length).toBeGreaterThan(0);
  });
});
