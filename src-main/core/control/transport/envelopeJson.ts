// An answer's JSON as the listener sends it: the text JSON.stringify gives, as a string when short and as
// paged UTF-8 bytes when long (pagedBytes.ts). A result that is an array is written an element at a time,
// each element's text encoded as soon as it is made. Made whole, a report of 100 agents was one string of
// ~5 MB, left in the old generation by every report: with the report's rows, every second or third one
// crossed V8's limit and paid a full collection (docs/research/measured.md, "A report written an element
// at a time"). The rows themselves still go there: a report is built whole before it is written.
import { encodePaged, PAGED_MIN_CHARS, PagedText } from '../../pagedBytes.js';

/** `{ok: true, result: [...]}` as dispatch makes it (envelope.ts): its array, else undefined. */
function successArray(body: unknown): readonly unknown[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { ok?: unknown; result?: unknown };
  if (b.ok !== true || !Array.isArray(b.result)) return undefined;
  // A toJSON (none today) changes what JSON.stringify writes, an element's by its index: such a body
  // goes the whole way.
  if ('toJSON' in b || 'toJSON' in b.result) return undefined;
  if (b.result.some((e) => typeof e === 'object' && e !== null && 'toJSON' in e)) return undefined;
  const keys = Object.keys(b);
  return keys.length === 2 && keys[0] === 'ok' && keys[1] === 'result' ? b.result : undefined;
}

/** JSON.stringify(body), as a string under PAGED_MIN_CHARS and as UTF-8 bytes (in chunks) from there on. */
export function envelopeJson(body: unknown): string | Buffer[] {
  const result = successArray(body);
  if (!result) {
    const text = JSON.stringify(body);
    return text.length < PAGED_MIN_CHARS ? text : [encodePaged(text)];
  }
  let out: PagedText | undefined;
  let pending = '{"ok":true,"result":[';
  for (let i = 0; i < result.length; i++) {
    // As JSON.stringify writes an array: what has no JSON (undefined, a function) is null.
    pending += (i ? ',' : '') + (JSON.stringify(result[i]) ?? 'null');
    if (pending.length >= PAGED_MIN_CHARS) {
      (out ??= new PagedText()).append(pending);
      pending = '';
    }
  }
  pending += ']}';
  if (!out) return pending.length < PAGED_MIN_CHARS ? pending : [encodePaged(pending)];
  out.append(pending);
  return out.chunks();
}
