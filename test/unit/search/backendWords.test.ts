// Which shared name prefixes are backends. A request that names a backend ("make a new github repo")
// ranks that backend's tools higher; but in a catalog of many vendors a prefix such as `car` in
// `car_rental_search` is a thing every vendor's tools act on, and a request about a rental car names
// no backend: ranking `car_…` tools above `tripnest.watchCarRental` for it cost BM25F 7 points top-1 on
// the long-request catalogs (docs/research/search.md).
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { backendsOf } from '../../../src-main/core/search/backends.js';
import { verbNounCatalog } from '../../../bench/verbNounCatalog.js';

const tool = (name: string, description: string, params: string[] = []): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string', description: `The ${p}` }])) },
});

const rentals: Tool[] = [
  tool('car_rental_search', 'Find car rentals that match loyalty points and destination city.', ['loyaltyPoints', 'destinationCity']),
  tool('car_rental_list', 'List car rentals by loyalty points.', ['loyaltyPoints']),
  tool('car_rental_get', 'Get one car rental with its loyalty points.', ['loyaltyPoints']),
  tool('tripnest.watchCarRental', 'Subscribe to notifications when a car rental changes its departure date and loyalty points.', [
    'departureDate',
    'loyaltyPoints',
  ]),
  tool('skyroute_cancel_car_rental', 'Cancel a car rental.', ['bookingId']),
  tool('skyroute_book_car_rental', 'Book a car rental.', ['departureDate']),
  tool('farewise.compareCarRental', 'Compare car rentals by price.', ['priceRange']),
  tool('farewise.shareCarRental', 'Share a car rental with someone.', ['email']),
  tool('skyroute_get_flight', 'Get a flight.', ['flightNumber']),
];
const services: Tool[] = [
  tool('mail_send_message', 'Send an email message.', ['to', 'body']),
  tool('mail_list_labels', 'List the mailbox labels.'),
  tool('github_create_repository', 'Create a repository.', ['name']),
  tool('github_list_issues', 'List the issues of a repository.', ['repo']),
  tool('gitlab_create_project', 'Create a project (a repository).', ['name']),
  tool('gitlab_list_merge_requests', 'List the merge requests of a project.', ['project']),
];

const box = (tools: Tool[]) => new Toolbox(new Map([['catalog', tools]]), false);
// A catalog's worth of other tools, so that word statistics are those of a large catalog.
const filler = verbNounCatalog(1200).tools.filter((t) => !/car|rental|departure|loyalty/i.test(t.name + (t.description ?? '')));

describe('backends among name prefixes', () => {
  it('a prefix no other tool uses in its name is a backend; one other tools name as their object is not', () => {
    const keys = [...backendsOf([...box([...rentals, ...services]).all()], false).keys()];
    expect(keys).toEqual(expect.arrayContaining(['mail', 'github', 'gitlab', 'skyroute']));
    expect(keys).not.toContain('car');
  });

  it('a few other tools using a service word do not take its backend apart', () => {
    const gitTools = [
      'status',
      'diff_staged',
      'diff_unstaged',
      'commit',
      'add',
      'reset',
      'log',
      'create_branch',
      'checkout',
      'show',
      'init',
      'branch',
    ];
    const catalog = [
      ...gitTools.map((n) => tool(`git_${n}`, `Git ${n.replace('_', ' ')}.`)),
      // camelCase names split into words: "GitHub" holds "git".
      ...['getGitHubIssue', 'listGitHubPulls', 'searchGitHubCode'].map((n) => tool(n, 'A GitHub call.')),
      tool('brave_web_search', 'Search the web.'),
      tool('brave_local_search', 'Search local businesses.'),
      tool('summarize_brave_results', 'Summarize results.'),
      // Another server's tools that name slack: two names do not turn `slack` into an object word.
      ...[
        'post_message',
        'list_channels',
        'reply_to_thread',
        'add_reaction',
        'get_channel_history',
        'get_users',
        'get_user_profile',
        'get_thread_replies',
      ].map((n) => tool(`slack_${n}`, `Slack: ${n.replace(/_/g, ' ')}.`)),
      tool('forward_slack_message', 'Forward a message.'),
      tool('mirror_slack_post', 'Mirror a post.'),
    ];
    const keys = [...backendsOf([...box(catalog).all()], false).keys()];
    expect(keys).toEqual(expect.arrayContaining(['git', 'brave', 'slack']));
    const b = box(catalog);
    const s = new SearchService(() => b, {}, 'bm25f');
    expect(s.resolve('post a message to a slack channel', 3).entries[0]?.name).toBe('slack_post_message');
  });

  it('a request about a rental car ranks by what it asks, not by a `car_` prefix', () => {
    const b = box([...filler, ...rentals]);
    const s = new SearchService(() => b, {}, 'bm25f');
    const top = s.resolve(
      'I am trying to get pinged whenever a rental car is different filtered by the departure day and loyalty points',
      3,
    ).entries;
    expect(top[0]?.name).toBe('tripnest.watchCarRental');
  });

  it('a request that names a service still ranks that service first', () => {
    const b = box(services);
    const s = new SearchService(() => b, {}, 'bm25f');
    expect(s.resolve('make a new gitlab repository', 3).entries[0]?.name).toBe('gitlab_create_project');
    expect(s.resolve('make a new github repository', 3).entries[0]?.name).toBe('github_create_repository');
  });
});
