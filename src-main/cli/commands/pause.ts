// `mws pause` / `mws resume`: the switch the tray and the window have, for the running instance.
import { MwsError } from '../../core/errors.js';
import type { ConfigFlags } from '../config.js';
import { cliConfigLater } from '../configLater.js';
import { withControl } from '../instance.js';
import type { Io } from '../output.js';

export async function runPause(io: Io, f: ConfigFlags & { demotion: boolean; paused: boolean }): Promise<number> {
  const config = await cliConfigLater(f);
  return withControl(config, async ({ api, source }) => {
    if (source !== 'running instance')
      throw new MwsError(
        'usage',
        `No instance is running, so there is nothing to ${f.paused ? 'pause' : 'resume'}; start one with \`mws serve\`.`,
      );
    if (f.demotion) {
      await api.setDemotionPaused({ paused: f.paused });
      io.out(
        f.paused
          ? 'Automatic demotion is paused; the proxy keeps serving. `mws resume --demotion` turns it back on.'
          : 'Automatic demotion is back on; the next sweep runs within 5 minutes.',
      );
    } else {
      await api.setProxyPaused({ paused: f.paused });
      io.out(
        f.paused
          ? 'Working Set is paused: clients are told to try again later. `mws resume` turns it back on.'
          : 'Working Set is serving again.',
      );
    }
    return 0;
  });
}
