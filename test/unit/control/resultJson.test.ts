// `mws report --json` prints the result as the instance wrote it, without parsing it first: the text must
// be what JSON.stringify of the result gives, errors must still be errors, and an answer of any other
// shape is read the ordinary way.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { controlHandler } from '../../../src-main/core/control/transport/http.js';
import { httpControlResultJson } from '../../../src-main/core/control/transport/httpClient.js';
import { MwsError } from '../../../src-main/core/errors.js';
import type { ControlApi } from '../../../src-main/core/control/contract.js';
import { isPaged, pagesAvailable } from '../../../src-main/core/pagedBytes.js';

const TOKEN = 'result-json-token';
let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A loopback listener answering every POST with the real control handler, or with `canned` as it is. */
async function serve(
  api: Partial<ControlApi>,
  canned?: { status: number; text: string | Buffer; headers?: Record<string, string> },
): Promise<string> {
  const handler = controlHandler(api as ControlApi, () => TOKEN);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (canned) {
          res.writeHead(canned.status, { 'content-type': 'application/json', ...canned.headers }).end(canned.text);
          return;
        }
        const answer = await handler(
          new Request(`http://127.0.0.1${req.url}`, {
            method: 'POST',
            headers: req.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        );
        // As the listener writes it: every header (content-length, the envelope's mark), the body as it streams.
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        for await (const chunk of answer.body ?? []) res.write(chunk);
        res.end();
      })();
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server!.address() as { port: number }).port}`;
}

describe('a control result as the instance wrote it', () => {
  it('is the text JSON.stringify gives for the result, quotes, escapes and words past ASCII included', async () => {
    const result = [{ agent: 'a "quoted" \\ one', name: 'Café — ☕', listed: [{ tool: 'x\ny', n: 1.5, ok: null }], history: {} }];
    const url = await serve({ report: async () => result as never });
    const text = (await httpControlResultJson(url, TOKEN)('report', {})).toString('utf8');
    expect(text).toBe(JSON.stringify(result));
    expect(JSON.parse(text)).toEqual(result);
  });

  it("is the instance's error, with its code and sentence", async () => {
    const url = await serve({
      report: async () => {
        throw new MwsError('agent_not_found', 'No agent "nope". Known: a0.');
      },
    });
    const err = await httpControlResultJson(url, TOKEN)('report', { agent: 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MwsError);
    expect(err).toMatchObject({ code: 'agent_not_found', message: 'No agent "nope". Known: a0.' });
  });

  it('is refused with the reason when the token is wrong', async () => {
    const url = await serve({ report: async () => [] });
    const err = await httpControlResultJson(url, 'wrong')('report', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MwsError);
    expect((err as MwsError).code).toBe('unauthorized');
  });

  it("is cut out only when the listener says the result ends its answer: another version's envelope is read whole", async () => {
    const handler = controlHandler({ report: async () => [] } as unknown as ControlApi, () => TOKEN);
    const mark = async (body: unknown) =>
      (
        await handler(
          new Request('http://127.0.0.1/control/report', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
            body: JSON.stringify(body),
          }),
        )
      ).headers.get('x-mws-envelope');
    expect(await mark({})).toBe('result-last');
    // An error's envelope is not marked.
    expect(await mark({ agent: 7 })).toBeNull();
    // A field after the result, unmarked: the result alone, not the text up to the last brace.
    let url = await serve({}, { status: 200, text: '{"ok":true,"result":[1],"version":"2.0"}' });
    expect((await httpControlResultJson(url, TOKEN)('report', {})).toString('utf8')).toBe('[1]');
    await new Promise<void>((r) => server!.close(() => r()));
    url = await serve({}, { status: 200, text: '{"result":[1,{"a":2}],"ok":true}' });
    expect((await httpControlResultJson(url, TOKEN)('report', {})).toString('utf8')).toBe('[1,{"a":2}]');
    await new Promise<void>((r) => server!.close(() => r()));
    url = await serve({}, { status: 200, text: '{"ok":true}' });
    expect((await httpControlResultJson(url, TOKEN)('report', {})).toString('utf8')).toBe('null');
  });
});

describe('a control result that is not UTF-8', () => {
  it('is decoded as text would be (U+FFFD), not passed on as the bytes came', async () => {
    const body = Buffer.concat([Buffer.from('{"ok":true,"result":["a'), Buffer.from([0xff, 0x9b]), Buffer.from('"]}')]);
    const url = await serve({}, { status: 200, text: body, headers: { 'x-mws-envelope': 'result-last' } });
    const out = await httpControlResultJson(url, TOKEN)('report', {});
    expect(Buffer.compare(out, Buffer.from(JSON.stringify(['a\ufffd\ufffd'])))).toBe(0);
  });
});

describe('a large control answer', () => {
  it('is sent as paged bytes with its length, the same text a small one would be', async () => {
    // ~1 MB, like a report of many agents: as a string it would be encoded into a block of the C allocator.
    const result = Array.from({ length: 8000 }, (_, i) => ({ agent: `a${i}`, name: 'Café — ☕ '.repeat(10) }));
    const handler = controlHandler({ report: async () => result } as unknown as ControlApi, () => TOKEN);
    const answer = await handler(
      new Request('http://127.0.0.1/control/report', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: '{}',
      }),
    );
    const reader = answer.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    // Where memories cannot be made (a ulimit -v, --jitless) the allocator's buffers stand in, by design.
    if (pagesAvailable()) expect(chunks.every((c) => isPaged(c))).toBe(true);
    const bytes = Buffer.concat(chunks);
    expect(answer.headers.get('content-length')).toBe(String(bytes.length));
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ ok: true, result });

    const url = await serve({ report: async () => result as never });
    expect(JSON.parse((await httpControlResultJson(url, TOKEN)('report', {})).toString('utf8'))).toEqual(result);
  });
});
