import { describe, expect, it } from 'vitest';
import { backupSlot, scheduleTime } from './schedule';

describe('the daily backup slot', () => {
  const at3 = { hour: 3, minute: 0 };

  it('is 03:00 in the school zone: due from then on that school day, next the day after', () => {
    // 02:59 in Kolkata (UTC+5:30) on 2 March.
    const before = backupSlot(new Date('2026-03-01T21:29:00Z'), at3, 'Asia/Kolkata');
    expect(before).toMatchObject({ day: '2026-03-02', due: false });
    expect(before.at.toISOString()).toBe('2026-03-01T21:30:00.000Z');
    expect(before.next.toISOString()).toBe('2026-03-01T21:30:00.000Z');

    const after = backupSlot(new Date('2026-03-02T12:00:00Z'), at3, 'Asia/Kolkata');
    expect(after).toMatchObject({ day: '2026-03-02', due: true });
    expect(after.next.toISOString()).toBe('2026-03-02T21:30:00.000Z');
  });

  it('follows daylight saving time (Europe/Berlin moves to UTC+2 on 29 March 2026)', () => {
    expect(backupSlot(new Date('2026-03-28T12:00:00Z'), at3, 'Europe/Berlin').at.toISOString()).toBe(
      '2026-03-28T02:00:00.000Z',
    );
    const sunday = backupSlot(new Date('2026-03-29T12:00:00Z'), at3, 'Europe/Berlin');
    expect(sunday.at.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(sunday.next.toISOString()).toBe('2026-03-30T01:00:00.000Z');
  });

  it('names the schedule as configured', () => {
    expect(scheduleTime({ hour: 3, minute: 5 })).toBe('03:05');
    expect(scheduleTime('off')).toBeNull();
  });
});
