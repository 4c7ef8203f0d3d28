// Raw HTTP against a listener, for tests that must forge what fetch will not let them (Host, Origin,
// malformed paths). Every request has a deadline and says what it was waiting for.
import { request, Agent } from 'node:http';

export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
  opts: { timeoutMs?: number; agent?: Agent } = {},
): Promise<RawAnswer> {
  const url = new URL(base);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method, headers, ...(opts.agent ? { agent: opts.agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms to ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}
