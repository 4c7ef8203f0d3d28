// Two-task queries: the best tool for each task among the first hits, and the reply says so.
import { describe, expect, it } from 'vitest';
import { Toolbox } from '../../src-main/core/toolbox/toolbox.js';
import { DEMO_TOOLS } from '../../src-main/core/demo/tools.js';
import { SearchService } from '../../src-main/core/search/service.js';
import { splitTasks } from '../../src-main/core/search/tasks.js';

const box = new Toolbox(new Map([['upstream', [...DEMO_TOOLS]]]), false);
const service = new SearchService(() => box);

describe('queries that name two tasks', () => {
  it('splits only where each side has an action of its own kind', () => {
    expect(splitTasks('find the invoice and email it to Ana')).toEqual(['find the invoice', 'email it to Ana']);
    expect(splitTasks('search for the report, then share it with bob')).toEqual(['search for the report', 'share it with bob']);
    expect(splitTasks('open this email and read its body')).toBeUndefined();
    expect(splitTasks('find the invoice and the receipt')).toBeUndefined();
    expect(splitTasks('salt and pepper')).toBeUndefined();
  });

  it('puts the best tool for each task first and names them in the reply', () => {
    const reply = JSON.parse(service.search('find the invoice and email it to Ana', 5, () => false).text) as { tasks: Array<{ task: string; tool: string }>; note: string; results: Array<{ name: string }> };
    expect(reply.tasks.map((t) => t.task)).toEqual(['find the invoice', 'email it to Ana']);
    expect(reply.tasks[1]!.tool).toBe('mail_send_message');
    const top3 = reply.results.slice(0, 3).map((r) => r.name);
    expect(top3).toEqual(expect.arrayContaining(['mail_send_message', 'mail_search_messages']));
    expect(reply.note).toMatch(/names 2 tasks/);
    const calendar = JSON.parse(service.search('find a free slot on friday and then share the agenda doc with Ana', 5, () => false).text) as { tasks?: Array<{ tool: string }>; results: Array<{ name: string }> };
    expect(calendar.tasks?.map((t) => t.tool)).toEqual(['calendar_find_free_time', 'drive_share_file']);
    expect(calendar.results.slice(0, 2).map((r) => r.name)).toEqual(['calendar_find_free_time', 'drive_share_file']);
  });
});
