import { describe, expect, it } from 'vitest';
import { MARK_MOVE_MS, markPosition } from './session-mark';

describe('the moving session mark', () => {
  it('stays put within a slot, moves between slots and keeps clear of the centre and corners', () => {
    const t = 1_700_000_000_000 - (1_700_000_000_000 % MARK_MOVE_MS);
    expect(markPosition('7K3MQ9XD', t)).toEqual(markPosition('7K3MQ9XD', t + MARK_MOVE_MS - 1));
    const places = new Set<string>();
    for (let slot = 0; slot < 200; slot++) {
      const { fx, fy } = markPosition('7K3MQ9XD', t + slot * MARK_MOVE_MS);
      places.add(`${fx.toFixed(3)},${fy.toFixed(3)}`);
      expect(fx).toBeGreaterThanOrEqual(0.2);
      expect(fx).toBeLessThanOrEqual(0.8);
      expect(fy < 0.35 || fy > 0.6).toBe(true); // the roll number is at 0.5
      expect(fy).toBeGreaterThanOrEqual(0.2);
      expect(fy).toBeLessThanOrEqual(0.76);
    }
    expect(places.size).toBeGreaterThan(150);
    expect(markPosition('AAAAAAAA', t)).not.toEqual(markPosition('BBBBBBBB', t));
  });
});
