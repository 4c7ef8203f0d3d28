// One JSON POST over node:http, for the CLI's control client: global fetch would load undici first,
// a large share of a short CLI command's start-up. No keep-alive:
// a command makes a call or two and ends.
import { request as httpRequest } from 'node:http';

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number; bytes: Buffer; headers: Record<string, string | string[] | undefined> }> {
  // An instance serving TLS (listen.tls) is reached over https, its CA as Node trusts it (NODE_EXTRA_CA_CERTS);
  // node:https (and TLS) is loaded only then.
  const request = url.startsWith('https:') ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
