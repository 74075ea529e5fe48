import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';

export interface SelfSigned {
  certPath: string;
  keyPath: string;
  /** The certificate's PEM, for a client that trusts it. */
  cert: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl as the README shows. */
export function selfSignedCert(dir: string, name = 'lectern'): SelfSigned {
  const certPath = path.join(dir, `${name}.crt`);
  const keyPath = path.join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { certPath, keyPath, cert: readFileSync(certPath, 'utf8') };
}

/** A `fetch` over node:https that trusts `ca` (the built-in fetch takes no CA); enough for TestClient. */
export function fetchTrusting(ca: string): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const req = request(url, { method: init.method ?? 'GET', headers, ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const v of [value ?? []].flat()) answer.append(name, v);
          const body = [204, 304].includes(res.statusCode!) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status: res.statusCode, headers: answer }));
        });
      });
      req.on('error', reject);
      if (init.body !== undefined && init.body !== null) req.write(init.body as string);
      req.end();
    });
}
