import { describe, expect, it } from 'vitest';
import { openingState } from './opening-hours';

describe('openingState', () => {
  it('opens at 10:00 and closes at 22:00 IST, a half-hour offset from UTC', () => {
    expect(openingState(new Date('2026-03-02T04:29:59Z'), [10, 22], 'Asia/Kolkata').open).toBe(false); // 09:59:59
    expect(openingState(new Date('2026-03-02T04:30:00Z'), [10, 22], 'Asia/Kolkata').open).toBe(true); // 10:00
    expect(openingState(new Date('2026-03-02T16:29:59Z'), [10, 22], 'Asia/Kolkata').open).toBe(true); // 21:59:59
    expect(openingState(new Date('2026-03-02T16:30:00Z'), [10, 22], 'Asia/Kolkata').open).toBe(false); // 22:00
  });

  it('handles windows that wrap past midnight', () => {
    const at = (iso: string) => openingState(new Date(iso), [22, 6], 'UTC');
    expect(at('2026-03-02T23:00:00Z').open).toBe(true);
    expect(at('2026-03-02T05:59:00Z').open).toBe(true);
    expect(at('2026-03-02T12:00:00Z')).toMatchObject({
      open: false,
      opensAt: new Date('2026-03-02T22:00:00Z'),
    });
    expect(at('2026-03-02T23:00:00Z').closesAt).toEqual(new Date('2026-03-03T06:00:00Z'));
  });

  it('is always open with "always"', () => {
    expect(openingState(new Date('2026-03-02T03:00:00Z'), 'always', 'UTC')).toMatchObject({
      open: true,
      opensAt: null,
      closesAt: null,
    });
  });
});
