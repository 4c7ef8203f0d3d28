import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from '../../../src-main/core/proxy/argValidation.js';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { DEMO_TOOLS } from '../../../src-main/core/demo/tools.js';
import { stripProtocolMeta } from '../../../src-main/core/proxy/results.js';

const tb = new Toolbox(new Map([['upstream', [...DEMO_TOOLS]]]), false);
const v = new ArgumentValidator();

describe('argument validation', () => {
  it('accepts arguments that fit', () => {
    expect(v.check(tb.get('mail_send_message')!, { to: ['a@example.com'], subject: 's', body: 'b' })).toBeUndefined();
  });

  it('lists every problem in one sentence the model can act on', () => {
    const msg = v.check(tb.get('mail_send_message')!, { to: 'a@example.com', subject: 's', colour: 'red' })!;
    expect(msg).toMatch(/^The arguments for mail_send_message do not match its input schema:/);
    expect(msg).toMatch(/"body" is required/);
    expect(msg).toMatch(/"to" must be array/);
    expect(msg).toMatch(/"colour" is not a parameter of this tool/);
  });

  it('names allowed enum values and checks formats', () => {
    expect(v.check(tb.get('calendar_respond_to_invite')!, { eventId: 'e', response: 'maybe' })).toMatch(
      /"accepted", "declined", "tentative"/,
    );
    expect(v.check(tb.get('calendar_list_events')!, { timeMin: 'next tuesday' })).toMatch(/timeMin/);
  });
});

describe('result scrubbing', () => {
  it('drops io.modelcontextprotocol/* keys from _meta and keeps the rest', () => {
    expect(
      stripProtocolMeta({ content: [], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' }, trace: 't' } }),
    ).toEqual({ content: [], _meta: { trace: 't' } });
    expect(stripProtocolMeta({ content: [], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' } } })).toEqual({
      content: [],
    });
  });
});
