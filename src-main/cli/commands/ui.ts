// `mws ui`: a new one-time link to the running instance's settings window.
import { MwsError } from '../../core/errors.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { withControl } from '../instance.js';
import type { Io } from '../output.js';

export async function runUi(io: Io, f: ConfigFlags & { revokeAll?: boolean }): Promise<number> {
  const { config } = await cliConfig(f);
  return withControl(
    config,
    async ({ api, source }) => {
      if (source !== 'running instance')
        throw new MwsError('usage', 'No instance is running: start one with `mws serve` (it prints the link).');
      if (f.revokeAll) {
        const { ended } = await api.uiRevokeAll({});
        io.out(`Ended ${ended} window session${ended === 1 ? '' : 's'}; unspent links no longer work. Run \`mws ui\` for a new link.`);
        return 0;
      }
      io.out((await api.uiLink({})).url);
      return 0;
    },
    undefined,
    { demoToo: true },
  );
}
