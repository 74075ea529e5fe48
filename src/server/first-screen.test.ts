import { describe, expect, it } from 'vitest';
import { appUrl, plainHttpWarning } from './first-screen';

describe('plain HTTP warning', () => {
  const plain = { tls: undefined, trustProxy: false as const };

  it('is silent on loopback, with TLS_CERT, and behind a trusted proxy', () => {
    for (const host of ['127.0.0.1', '127.0.1.1', 'localhost', '::1'])
      expect(plainHttpWarning({ ...plain, host })).toBeUndefined();
    const tls = { cert: 'c', key: 'k' };
    expect(plainHttpWarning({ host: '0.0.0.0', tls, trustProxy: false })).toBeUndefined();
    expect(plainHttpWarning({ host: '0.0.0.0', tls: undefined, trustProxy: 1 })).toBeUndefined();
    expect(plainHttpWarning({ host: '0.0.0.0', tls: undefined, trustProxy: ['10.0.0.5'] })).toBeUndefined();
  });

  it('says that production needs TLS when the network can reach plain HTTP', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'lectern.school.example'])
      expect(plainHttpWarning({ ...plain, host })).toMatch(
        new RegExp(
          `^HOST=${host.replace(/\./g, '\\.')} serves plain HTTP.*Production needs TLS: set TLS_CERT and TLS_KEY`,
        ),
      );
  });

  it('gives the address a browser opens, https with TLS', () => {
    expect(appUrl({ address: '0.0.0.0', port: 3000 }, false)).toBe('http://localhost:3000');
    expect(appUrl({ address: '::1', port: 443 }, true)).toBe('https://[::1]:443');
  });
});
