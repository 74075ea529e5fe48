import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIN_NODE, nodeLine } from './doctor-machine';

describe("the doctor's node line", () => {
  it("passes Node.js from package.json's engines on, and fails an older one with the fix", () => {
    expect(nodeLine('v24.21.0', '/opt/node24/bin/node')).toEqual({
      verdict: 'ok',
      name: 'node',
      detail: 'v24.21.0 (/opt/node24/bin/node)',
    });
    expect(nodeLine('v22.19.0', '/x/node').verdict).toBe('ok');
    expect(nodeLine('v26.0.0', '/x/node').verdict).toBe('ok');
    for (const old of ['v22.18.0', 'v20.20.2', 'v18.19.1']) {
      const line = nodeLine(old, '/usr/bin/node');
      expect(line.verdict).toBe('fail');
      expect(line.detail).toBe(`${old} (/usr/bin/node): Lectern needs Node.js 22.19+ (24 LTS)`);
      expect(line.fix).toMatch(/Prerequisites/);
    }
  });

  it("knows the same minimum as package.json's engines", () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${MIN_NODE}`);
  });

  it('passes the Node.js running the tests (CI runs them on 24)', () => {
    expect(nodeLine().verdict).toBe('ok');
  });
});
