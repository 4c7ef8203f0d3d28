// `mws tool hide|unhide|list UPSTREAM [TOOL]`: hide single tools of an upstream from every agent and
// from search (kept in the config's "hiddenTools"), show them again, and list an upstream's tools with
// which are hidden. Hide and unhide need no instance: without one, the file is edited.
import { ConfigEditor } from '../../core/config/editor.js';
import { MwsError } from '../../core/errors.js';
import { setToolHiddenIn, toolNameAt } from '../../core/control/upstreamOps.js';
import { printable } from '../../core/printable.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { isRunning, withControl } from '../instance.js';
import type { Io } from '../output.js';
import { table } from '../table.js';

export type ToolFlags = ConfigFlags & { json: boolean; rest: string[] };

const ACTIONS = ['hide', 'unhide', 'list'] as const;

export async function runTool(io: Io, f: ToolFlags): Promise<number> {
  const [action, vendor, tool, ...extra] = f.rest;
  if (!action || !(ACTIONS as readonly string[]).includes(action))
    throw new MwsError(
      'usage',
      `${action ? `mws tool has no "${action}"` : 'mws tool needs what to do'}: one of ${ACTIONS.join(', ')} (e.g. \`mws tool hide github delete_repository\`).`,
    );
  if (!vendor) throw new MwsError('usage', `Name the upstream: \`mws tool ${action} UPSTREAM${action === 'list' ? '' : ' TOOL'}\`.`);
  if (action !== 'list' && !tool) throw new MwsError('usage', `Name the tool: \`mws tool ${action} ${vendor} TOOL\`.`);
  if (extra.length || (action === 'list' && tool))
    throw new MwsError('usage', `mws tool ${action} takes ${action === 'list' ? 'one upstream' : 'one upstream and one tool'}.`);
  const loaded = await cliConfig(f);
  if (!Object.hasOwn(loaded.config.upstreams, vendor)) {
    const known = Object.keys(loaded.config.upstreams);
    throw new MwsError(
      'not_found',
      `No upstream "${vendor}" in ${loaded.path}.${known.length ? ` The upstreams are: ${known.join(', ')}.` : ' There are none yet.'}`,
    );
  }
  const running = await isRunning(loaded.config);
  if (action === 'list') {
    if (!running)
      throw new MwsError(
        'usage',
        'No instance is running, so no upstream has listed its tools; start one with `mws serve` (or open the app).',
      );
    const rows = await withControl(loaded.config, ({ api }) => api.upstreamTools({ vendor }));
    if (f.json) io.out(JSON.stringify(rows));
    else if (!rows.length) io.out(`Upstream "${vendor}" lists no tools now.`);
    else
      io.out(
        table(
          ['tool', 'kind', 'hidden', 'listed by'],
          rows.map((r) => [r.name, r.kind, r.hidden ? 'hidden' : '', r.agents.join(', ')]),
        ),
      );
    return 0;
  }
  const hidden = action === 'hide';
  if (running) {
    const r = await withControl(loaded.config, ({ api }) => api.setToolHidden({ vendor, tool: tool!, hidden }));
    if (f.json) io.out(JSON.stringify(r));
    else
      io.out(
        printable(
          hidden
            ? `${r.changed ? 'Hid' : 'Already hidden:'} "${r.tool}" of "${vendor}": it is in no agent's list, search or call. \`mws tool unhide ${vendor} ${r.tool}\` shows it again.`
            : `${r.changed ? 'Showed' : 'Not hidden:'} "${r.tool}" of "${vendor}"${r.changed ? ' again: agents can find and call it' : ''}.`,
        ),
      );
    return 0;
  }
  const name = toolNameAt(vendor, tool!, [], loaded.config.hiddenTools[vendor] ?? []);
  const editor = new ConfigEditor(loaded.path, loaded.raw, loaded.config.stateDir, async () => {});
  await editor.update((raw) => void setToolHiddenIn(raw, vendor, name, hidden));
  if (f.json) io.out(JSON.stringify({ vendor, tool: name, hidden }));
  else
    io.out(printable(`${hidden ? 'Hid' : 'Showed'} "${name}" of "${vendor}" in ${loaded.path}; it takes effect when Working Set starts.`));
  return 0;
}
