// Two-task queries: the best tool for each task among the first hits, and the reply says so.
import { describe, expect, it } from 'vitest';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { DEMO_TOOLS } from '../../../src-main/core/demo/tools.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { splitTasks } from '../../../src-main/core/search/tasks.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { ROOT } from '../../helpers/processes.js';

const box = new Toolbox(new Map([['upstream', [...DEMO_TOOLS]]]), false);
const service = new SearchService(() => box);

describe('queries that name two tasks', () => {
  it('splits only where each side has an action of its own kind', () => {
    expect(splitTasks('find the invoice and email it to Ana')).toEqual(['find the invoice', 'email it to Ana']);
    expect(splitTasks('search for the report, then share it with bob')).toEqual(['search for the report', 'share it with bob']);
    expect(splitTasks('open this email and read its body')).toBeUndefined();
    expect(splitTasks('find the invoice and the receipt')).toBeUndefined();
    expect(splitTasks('salt and pepper')).toBeUndefined();
    // "then" and ";" mark a new task even when its verb is in no action class (commit, take, post).
    expect(splitTasks('read the config file and then commit it to github')).toEqual(['read the config file', 'commit it to github']);
    expect(splitTasks('take a screenshot of the page; post it on slack')).toEqual(['take a screenshot of the page', 'post it on slack']);
    expect(splitTasks('bread then')).toBeUndefined();
  });

  it('finds a tool for each task among the top hits on a catalog of real MCP servers', () => {
    const real = (JSON.parse(readFileSync(join(ROOT, 'test/fixtures/servers-catalog.json'), 'utf8')) as { tools: Tool[] }).tools;
    const realBox = new Toolbox(new Map([['catalog', real]]), false);
    const s = new SearchService(() => realBox);
    const reply = JSON.parse(s.search('take a screenshot of the page, then post it on slack', 5, () => false).text) as {
      tasks: Array<{ tool: string }>;
      note: string;
      results: Array<{ name: string }>;
    };
    expect(reply.tasks.map((t) => t.tool)).toEqual(['playwright__browser_take_screenshot', 'slack__slack_post_message']);
    expect(reply.results.slice(0, 2).map((r) => r.name)).toEqual(['playwright__browser_take_screenshot', 'slack__slack_post_message']);
    expect(reply.note).toMatch(/names 2 tasks/);
  });

  it('puts the best tool for each task first and names them in the reply', () => {
    const reply = JSON.parse(service.search('find the invoice and email it to Ana', 5, () => false).text) as {
      tasks: Array<{ task: string; tool: string }>;
      note: string;
      results: Array<{ name: string }>;
    };
    expect(reply.tasks.map((t) => t.task)).toEqual(['find the invoice', 'email it to Ana']);
    expect(reply.tasks[1]!.tool).toBe('mail_send_message');
    const top3 = reply.results.slice(0, 3).map((r) => r.name);
    expect(top3).toEqual(expect.arrayContaining(['mail_send_message', 'mail_search_messages']));
    expect(reply.note).toMatch(/names 2 tasks/);
    const calendar = JSON.parse(
      service.search('find a free slot on friday and then share the agenda doc with Ana', 5, () => false).text,
    ) as { tasks?: Array<{ tool: string }>; results: Array<{ name: string }> };
    expect(calendar.tasks?.map((t) => t.tool)).toEqual(['calendar_find_free_time', 'drive_share_file']);
    expect(calendar.results.slice(0, 2).map((r) => r.name)).toEqual(['calendar_find_free_time', 'drive_share_file']);
  });
});
