// An answer's JSON as the listener sends it: the text JSON.stringify gives, as a string when short and as
// paged UTF-8 bytes when long (pagedBytes.ts). A result that is an array is written an element at a time,
// each element's text encoded as soon as it is made. Made whole, a report of 100 agents was one string of
// ~5 MB, left in the old generation by every report: with the report's rows, every second or third one
// crossed V8's limit and paid a full collection (docs/research/measured.md, "A report written an element
// at a time"). An element frozen all the way down (an agent's report kept between reports,
// reportControl.ts) cannot change, so its text is made once and kept with it.
import { isDeeplyFrozen } from '../../immutable.js';
import { encodePaged, PAGED_MIN_CHARS, PagedText } from '../../pagedBytes.js';

/** Each deeply frozen element's JSON, for as long as the element lives. */
const frozenJson = new WeakMap<object, string>();

/** An array element's JSON as JSON.stringify writes it in an array: what has none (undefined, a function) is null. */
function elementJson(e: unknown): string {
  if (typeof e !== 'object' || e === null || !isDeeplyFrozen(e)) return JSON.stringify(e) ?? 'null';
  let text = frozenJson.get(e);
  if (text === undefined) frozenJson.set(e, (text = JSON.stringify(e)));
  return text;
}

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
    pending += (i ? ',' : '') + elementJson(result[i]);
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
