// Requests over node:http, for the CLI's control client: global fetch would load undici first,
// a large share of a short CLI command's start-up. No keep-alive: a command makes a call or two and ends.
import { request as httpRequest } from 'node:http';

type Answer = { status: number; text: string };

async function send(
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<Answer> {
  // An instance serving TLS (listen.tls) is reached over https, its CA as Node trusts it (NODE_EXTRA_CA_CERTS);
  // node:https (and TLS) is loaded only then.
  const request = url.startsWith('https:') ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent: false,
        headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body || undefined);
  });
}

export function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Answer> {
  return send(url, 'POST', headers, body, timeoutMs);
}

/** A GET's HTTP status (the answer's body is read and dropped); rejects when nothing answers in time. */
export async function getStatus(url: string, timeoutMs: number): Promise<number> {
  return (await send(url, 'GET', {}, '', timeoutMs)).status;
}
