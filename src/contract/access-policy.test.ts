import { describe, expect, it } from 'vitest';
import { apiAccessState, courseAccess, expiryLabel, statusLabel, videoAccess } from './access-policy';

const ZONE = 'Asia/Kolkata';
// 15:00 in Kolkata (09:30 UTC); the school's day ends at 18:30 UTC.
const NOW = Date.parse('2026-03-10T09:30:00.000Z');
const at = (ms: number) => ({ accessRevoked: false, accessExpiration: new Date(ms) });

describe('the course access rule', () => {
  it.each([
    ['one millisecond ago', NOW - 1, 'expired', false, 0],
    ['now exactly', NOW, 'expires-today', true, 0],
    ['one millisecond from now', NOW + 1, 'expires-today', true, 0],
    [
      'at the last millisecond of the school day',
      Date.parse('2026-03-10T18:29:59.999Z'),
      'expires-today',
      true,
      0,
    ],
    ["at the school day's midnight", Date.parse('2026-03-10T18:30:00.000Z'), 'active', true, 1],
    ['yesterday', NOW - 86_400_000, 'expired', false, -1],
    ['in ten days', NOW + 10 * 86_400_000, 'active', true, 10],
  ])('an expiry %s is %s', (_, expires, state, canWatch, daysLeft) => {
    expect(courseAccess(at(expires), NOW, ZONE)).toEqual({ state, canWatch, daysLeft });
  });

  it('counts days in the school zone, not UTC: 23:00 UTC is already the next day in Kolkata', () => {
    const late = Date.parse('2026-03-10T23:00:00.000Z');
    expect(courseAccess(at(late), NOW, ZONE).daysLeft).toBe(1);
    expect(courseAccess(at(late), NOW, 'UTC').daysLeft).toBe(0);
  });

  it('revoked wins over a future expiry; no enrollment is not-enrolled', () => {
    expect(courseAccess({ accessRevoked: true, accessExpiration: NOW + 5e9 }, NOW, ZONE).state).toBe(
      'revoked',
    );
    expect(courseAccess(null, NOW, ZONE)).toEqual({ state: 'not-enrolled', canWatch: false, daysLeft: null });
  });

  it('reads the API fields as ISO text the same as dates', () => {
    const iso = new Date(NOW - 1).toISOString();
    expect(courseAccess({ accessRevoked: false, accessExpiration: iso }, new Date(NOW), ZONE).state).toBe(
      'expired',
    );
  });

  it('lets a student watch a video with active course access and a grant only', () => {
    expect(videoAccess(at(NOW), true, NOW, ZONE)).toBe('allowed');
    expect(videoAccess(at(NOW), false, NOW, ZONE)).toBe('no-video-access');
    expect(videoAccess(at(NOW - 1), true, NOW, ZONE)).toBe('no-course-access');
    expect(videoAccess(null, true, NOW, ZONE)).toBe('no-course-access');
  });

  it("says 'expired' for an enrollment that ended a few hours ago, never 'today'", () => {
    const verdict = courseAccess(at(NOW - 3 * 3_600_000), NOW, ZONE);
    expect(expiryLabel(verdict)).toBe('expired');
    expect(expiryLabel(courseAccess(at(NOW + 3_600_000), NOW, ZONE))).toBe('today');
    expect(expiryLabel(courseAccess(at(NOW + 86_400_000), NOW, ZONE))).toBe('in 1 day');
    expect(expiryLabel(courseAccess(at(NOW + 2 * 86_400_000), NOW, ZONE))).toBe('in 2 days');
  });

  it('names the states as the screens and the API do', () => {
    expect(statusLabel(courseAccess(at(NOW - 1), NOW, ZONE))).toBe('Active');
    expect(statusLabel(courseAccess({ accessRevoked: true, accessExpiration: NOW }, NOW, ZONE))).toBe(
      'Revoked',
    );
    expect(apiAccessState(courseAccess(at(NOW + 1), NOW, ZONE))).toBe('active');
    expect(apiAccessState(courseAccess(at(NOW - 1), NOW, ZONE))).toBe('expired');
  });
});
