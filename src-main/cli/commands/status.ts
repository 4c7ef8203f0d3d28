// `mws status`: the running instance at a glance — where it listens, each agent with the size of its
// list and its URL, and how many upstreams are up, down or waiting for the user.
import { MwsError } from '../../core/errors.js';
import type { ConfigFlags } from '../config.js';
import { cliConfigLater } from '../configLater.js';
import { isRunning, withControl } from '../instance.js';
import type { Io } from '../output.js';
import { plural, table } from '../table.js';
import { statusCounts } from '../daily/nextStep.js';

export async function runStatus(io: Io, f: ConfigFlags & { json: boolean }): Promise<number> {
  const loaded = await cliConfigLater(f);
  if (!(await isRunning(loaded))) {
    // A file with an error says so, as it did before anything was found running.
    await loaded.load();
    if (f.json) {
      io.out(JSON.stringify({ running: false, config: loaded.path }));
      return 1;
    }
    throw new MwsError(
      'instance_unreachable',
      `Working Set is not running for ${loaded.path}. Start it with \`mws serve\` (or open the app); \`mws doctor\` checks what would stop it.`,
    );
  }
  return withControl(loaded, async ({ api, status }) => {
    const s = status ?? (await api.status({}));
    if (f.json) {
      io.out(JSON.stringify({ running: true, config: loaded.path, ...s }));
      return 0;
    }
    const notes = [
      s.proxyPaused ? 'paused (`mws resume`)' : undefined,
      s.demotionPaused ? 'automatic demotion paused (`mws resume --demotion`)' : undefined,
      s.pendingApprovals ? `${plural(s.pendingApprovals, 'call')} waiting for approval (\`mws approve\`)` : undefined,
      s.restartNeeded ? 'a saved setting takes effect after a restart' : undefined,
      s.demo ? 'serving the demo toolbox' : undefined,
    ].filter((n) => n !== undefined);
    io.out(`Working Set is running at ${s.url}${notes.length ? ` — ${notes.join('; ')}` : ''}.`);
    io.out(
      `Upstreams: ${s.upstreams.length ? statusCounts(s.upstreams) : 'none yet (`mws upstream add`, `mws import`)'}; ${plural(s.toolboxSize, 'tool')} in the toolbox.`,
    );
    io.out('');
    io.out(
      table(
        ['agent', 'name', 'listed', 'cap', 'url'],
        s.agents.map((a) => [a.id, a.name, a.size, a.cap, a.url]),
      ),
    );
    return 0;
  });
}
