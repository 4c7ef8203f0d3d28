// `mws search <exact tool name>` in table mode: the tool and its arguments, never a blank line.
import { describe, expect, it } from 'vitest';
import { searchTable } from '../../../src-main/cli/commands/search.js';

describe('mws search with a tool name', () => {
  it('prints the tool with its arguments', () => {
    const out = searchTable({
      tool: {
        name: 'mail_send_message',
        destructiveHint: false,
        readOnlyHint: false,
        description: 'Compose and send an email immediately.',
        inputSchema: {
          type: 'object',
          properties: { to: { type: 'array', description: 'Recipients' }, subject: { type: 'string' } },
          required: ['to'],
        },
      },
    });
    expect(out.trim()).not.toBe('');
    expect(out).toMatch(/^mail_send_message \(write\)/);
    expect(out).toMatch(/to\s+array\s+yes\s+Recipients/);
    expect(searchTable({ tool: { name: 'ping', readOnlyHint: true } })).toMatch(/no arguments/);
  });
});
