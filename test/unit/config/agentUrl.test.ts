// The one printed form of an agent's endpoint, and that every form of it is read back as that agent.
import { describe, expect, it } from 'vitest';
import { agentIdOfPath, agentPath, agentUrl } from '../../../src-main/core/config/agentUrl.js';
import { ownEntry } from '../../../src-main/core/import/self.js';

describe('agent endpoints', () => {
  it('print a form that ends in /mcp for every agent', () => {
    expect(agentUrl('http://127.0.0.1:4491', 'default')).toBe('http://127.0.0.1:4491/mcp');
    expect(agentUrl('http://127.0.0.1:4491/', 'codex')).toBe('http://127.0.0.1:4491/mcp/codex/mcp');
    expect(agentPath('a b')).toBe('/mcp/a%20b/mcp');
  });

  it('read each printed form back as its agent', () => {
    for (const id of ['default', 'codex', 'ci-bot', 'mcp']) expect(agentIdOfPath(new URL(agentUrl('http://h:1', id)).pathname)).toBe(id);
    // The older form stays served, so configs written before keep working.
    expect(agentIdOfPath('/mcp/codex')).toBe('codex');
  });

  it('know the printed form as Working Set itself when importing', () => {
    const self = { serverName: 'toolbox', ports: [4484] };
    const entry = { name: 'ws', url: 'http://127.0.0.1:4484/mcp/codex/mcp', command: null, args: [] };
    expect(ownEntry(entry, self)).toMatch(/Working Set itself/);
  });
});
