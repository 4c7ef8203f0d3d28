// The upstream rows every upstream method answers with, read while a removal is under way.
import { describe, expect, it } from 'vitest';
import { upstreamRows } from '../../../src-main/core/control/upstreamConfig.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import type { ToolboxCatalog } from '../../../src-main/core/toolbox/merge.js';

describe('upstream rows', () => {
  it('leave out an upstream the catalog still closes after the config dropped it', () => {
    const config = validateConfig({ stateDir: '/tmp/mws-rows', upstreams: { a: { url: 'http://127.0.0.1:1/mcp' } } }, '/tmp/mws-rows');
    // A removal writes the config first; the catalog lets the vendor go once its connection closed.
    const catalog = {
      statuses: () => [
        { vendor: 'a', status: 'up' },
        { vendor: 'gone', status: 'starting' },
      ],
    } as unknown as ToolboxCatalog;
    const rows = upstreamRows({ config, catalog });
    expect(rows.map((r) => r.vendor)).toEqual(['a']);
    expect(rows[0]!.config).toMatchObject({ url: 'http://127.0.0.1:1/mcp' });
  });
});
