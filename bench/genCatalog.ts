// A synthetic large catalog: `backends × objects × verbs` tools with realistic names, descriptions
// and schemas, deterministic from a seed, plus gold queries phrased unlike the descriptions.
import type { Tool } from '@modelcontextprotocol/client';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const BACKENDS = [
  'github',
  'gitlab',
  'jira',
  'linear',
  'slack',
  'discord',
  'notion',
  'confluence',
  'salesforce',
  'hubspot',
  'stripe',
  'shopify',
  'zendesk',
  'intercom',
  'asana',
  'trello',
  'figma',
  'sentry',
  'datadog',
  'pagerduty',
  'aws',
  'gcp',
  'azure',
  'postgres',
  'mongodb',
  'redis',
  'twilio',
  'sendgrid',
  'airtable',
  'dropbox',
  'box',
  'okta',
  'workday',
  'greenhouse',
  'quickbooks',
  'xero',
  'mailchimp',
  'segment',
  'mixpanel',
  'amplitude',
  'snowflake',
  'bigquery',
  'vercel',
  'netlify',
  'cloudflare',
  'docker',
  'kubernetes',
  'terraform',
  'spotify',
  'youtube',
];
const OBJECTS = [
  'issue',
  'comment',
  'user',
  'team',
  'project',
  'channel',
  'message',
  'invoice',
  'customer',
  'order',
  'product',
  'ticket',
  'deployment',
  'alert',
  'incident',
  'record',
  'table',
  'bucket',
  'secret',
  'webhook',
  'report',
  'dashboard',
  'workflow',
  'label',
  'release',
];
const VERBS: Array<[string, string, boolean]> = [
  ['get', 'Fetch one {o} by id with all of its fields', true],
  ['list', 'List {o}s, newest first, with paging and filters', true],
  ['search', 'Search {o}s by keywords across titles and bodies', true],
  ['create', 'Create a new {o} with the given fields', false],
  ['update', 'Change fields of an existing {o}', false],
  ['delete', 'Permanently delete a {o}; this cannot be undone', false],
  ['archive', 'Archive a {o} so it no longer shows in default views', false],
  ['export', 'Export {o}s as CSV or JSON for reporting', true],
];
/** How a person might ask for each verb: never the verb itself, so ranking has to work for it. */
const VERB_WORDS: Record<string, string> = {
  get: 'show me the',
  list: 'all the',
  search: 'look for',
  create: 'make a',
  update: 'edit the',
  delete: 'remove the',
  archive: 'put away the old',
  export: 'download',
};

export function generateCatalog(count: number, seed = 7): { tools: Tool[]; gold: Array<{ query: string; expected: string[] }> } {
  const r = rng(seed);
  const tools: Tool[] = [];
  const gold: Array<{ query: string; expected: string[] }> = [];
  outer: for (const b of BACKENDS) {
    for (const o of OBJECTS) {
      for (const [v, desc, ro] of VERBS) {
        if (tools.length >= count) break outer;
        const name = `${b}_${v}_${o}`;
        const props: Record<string, unknown> = {};
        const required: string[] = [];
        if (['get', 'update', 'delete', 'archive'].includes(v)) {
          props[`${o}Id`] = { type: 'string', description: `Id of the ${o}` };
          required.push(`${o}Id`);
        }
        if (v === 'search') {
          props.query = { type: 'string', description: 'Keywords' };
          required.push('query');
        }
        if (v === 'list' || v === 'search') props.limit = { type: 'integer', minimum: 1, maximum: 100 };
        if (v === 'create' || v === 'update') {
          for (const f of ['title', 'description', 'owner', 'status', 'priority'])
            props[f] = { type: 'string', description: `The ${o}'s ${f}` };
          if (r() < 0.1) {
            // A few tools carry very large schemas, as real ones do, to exercise the reply budget.
            for (let i = 0; i < 40; i++)
              props[`customField${i}`] = {
                type: 'string',
                description: `Custom field ${i} of the ${o}, as configured by the workspace administrator in ${b} settings.`,
              };
          }
        }
        const long = r() < 0.15 ? ` ${'Supports filters, sorting and field selection. '.repeat(12)}` : '';
        tools.push({
          name,
          description: `${desc.replace('{o}', o)} in ${b}.${long}`,
          inputSchema: { type: 'object', properties: props as never, required },
          annotations: { readOnlyHint: ro, ...(ro ? {} : { destructiveHint: v === 'delete' }) },
        });
        if (r() < 0.02) gold.push({ query: `${VERB_WORDS[v]} ${o}${v === 'list' || v === 'export' ? 's' : ''} in ${b}`, expected: [name] });
      }
    }
  }
  return { tools, gold };
}
