// TLS for tests of a network listener: a self-signed certificate made at test time by openssl, and a
// fetch over node:https that trusts it and connects from a chosen local address (another "host").
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { Readable } from 'node:stream';

export type TestCert = { cert: string; key: string; pem: Buffer };

/** A one-day self-signed certificate for `ip` (subjectAltName IP:ip), written under `dir`. */
export function makeCert(dir: string, ip: string): TestCert {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      `/CN=${ip}`,
      '-addext',
      `subjectAltName=IP:${ip}`,
    ]),
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { cert, key, pem: readFileSync(cert) };
}

/** fetch over HTTPS trusting `ca`, from `localAddress`: what an MCP client on another host does. */
export function tlsFetch(ca: Buffer, localAddress: string): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined)).entries());
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers, ca, localAddress, agent: false }, (res) => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
        const status = res.statusCode ?? 0;
        const stream = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, headers: out }));
      });
      req.on('error', reject);
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
      req.end(body);
    });
  }) as typeof fetch;
}
