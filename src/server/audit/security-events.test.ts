import { describe, expect, it } from 'vitest';
import { logSecurityEvent, type SecurityAction } from './security-events';

/** The level each action's line was written at. */
function levelOf(action: SecurityAction): string {
  const lines: string[] = [];
  logSecurityEvent(
    { info: () => lines.push('info'), warn: () => lines.push('warn') },
    { action, userId: null },
  );
  return lines.join();
}

describe('security event log lines', () => {
  it('are warnings for every change to how a staff member signs in, and for the others a collector alerts on', () => {
    const changes: SecurityAction[] = [
      'mfa.enrolled',
      'mfa.passkey-added',
      'mfa.passkey-removed',
      'mfa.recovery-renewed',
      'session.others-ended',
    ];
    expect(changes.map(levelOf)).toEqual(changes.map(() => 'warn'));
    expect(levelOf('mfa.failure')).toBe('warn');
  });

  it('are information for the ordinary record', () => {
    expect(
      ['sign-in.success', 'session.ended', 'mfa.passkey-used'].map((a) => levelOf(a as SecurityAction)),
    ).toEqual(['info', 'info', 'info']);
  });
});
