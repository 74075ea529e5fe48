import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

describe('metrics settings', () => {
  it('are off by default, and on with either way to reach them', () => {
    expect(loadConfig({}).metrics).toEqual({
      port: undefined,
      host: '127.0.0.1',
      token: undefined,
      enabled: false,
    });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toMatchObject({ port: 9464, enabled: true });
    const token = 'x'.repeat(24);
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toMatchObject({ token, enabled: true });
  });

  it.each([
    [{ METRICS_PORT: 'ninety' }, /^Invalid METRICS_PORT="ninety": /],
    [{ METRICS_PORT: '3000' }, /^Invalid METRICS_PORT=3000: it must differ from PORT$/],
    [{ METRICS_TOKEN: 'short' }, /^Invalid METRICS_TOKEN="short": must be at least 24 characters/],
  ])('refuses %j with one line naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
