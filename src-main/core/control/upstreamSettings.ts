// The upstreams' settings: the saved ones as rows, save (secret values typed in go to the secret
// store, the file gets references), remove (its secrets go with it), and test one before saving.
import { MwsError } from '../errors.js';
import type { Raw } from '../config/editor.js';
import { validateConfig } from '../config/validate.js';
import { maskUrlsIn } from '../redact.js';
import { VENDOR_SLUG, type ControlHandlers } from './contract.js';
import { applyMoves, planMoves, storeMoves } from '../secrets/move.js';
import { ownsSecret } from '../secrets/refs.js';
import { refuseMovedSecrets, upstreamJson, upstreamRows } from './upstreamConfig.js';
import { configEdits, type SettingsParts } from './configEdits.js';

type Methods = Pick<ControlHandlers, 'upstreams' | 'saveUpstream' | 'removeUpstream' | 'testUpstream'>;

export function upstreamSettingsControl(p: SettingsParts): Methods {
  const { edit, upstreamsOf } = configEdits(p);
  const rows = () => upstreamRows(p);
  return {
    async upstreams() {
      return rows();
    },
    async saveUpstream(a) {
      const demo = p.demo?.();
      if (demo && a.leaveDemo !== true) {
        throw new MwsError(
          'demo_mode',
          `This is the demo. Adding an upstream leaves it: the upstream is saved to the config, and takes over when Working Set is restarted without --demo, with its own fresh state. The demo's state stays in ${demo.stateDir} for the next demo. Confirm to leave the demo (leaveDemo: true).`,
          { demoStateDir: demo.stateDir },
        );
      }
      // Adding under a name that is taken would replace what is saved there without a word: it is refused
      // unless the call says it is an edit (the window's Edit form, or after the user confirmed). Checked
      // before any secret is stored, so a refused save cannot overwrite the saved upstream's secrets.
      const refuseTaken = (ups: Raw) => {
        if (Object.hasOwn(ups, a.vendor) && a.replace !== true) {
          throw new MwsError(
            'upstream_exists',
            `An upstream named "${a.vendor}" already exists; nothing was changed. Pick another name, or edit "${a.vendor}" to replace it (mws upstream edit ${a.vendor}, or Edit in the window).`,
            { path: 'vendor', vendor: a.vendor, reason: 'is the name of an upstream that exists' },
          );
        }
      };
      refuseTaken(upstreamsOf(p.editor.current()));
      const saved = (p.editor.current().upstreams as Raw | undefined)?.[a.vendor];
      const planned = upstreamJson(a.upstream, saved);
      // Before any secret is stored: a refused save leaves the saved secrets as they were.
      refuseMovedSecrets(a.vendor, a.upstream, saved, planned);
      // Secret values typed in go to the secret store first; the file gets references to them.
      const moves = p.secrets ? planMoves(a.vendor, planned) : [];
      if (p.secrets) await storeMoves(moves, p.secrets);
      await edit((raw) => {
        const ups = upstreamsOf(raw);
        refuseTaken(ups);
        const json = upstreamJson(a.upstream, ups[a.vendor]);
        refuseMovedSecrets(a.vendor, a.upstream, ups[a.vendor], json);
        ups[a.vendor] = json;
        applyMoves(ups[a.vendor], moves);
      });
      return rows();
    },
    async removeUpstream(a) {
      await edit((raw) => {
        const ups = upstreamsOf(raw);
        if (!Object.hasOwn(ups, a.vendor))
          throw new MwsError('not_found', `No upstream "${a.vendor}" in the config; the saved ones are listed by upstreams.`, {
            vendor: a.vendor,
          });
        delete ups[a.vendor];
      });
      // Its secrets go with it: left behind, they would be read by the next upstream of that name.
      if (p.secrets) for (const name of await p.secrets.list()) if (ownsSecret(a.vendor, name)) await p.secrets.delete(name);
      return rows();
    },
    async testUpstream(a) {
      // Testing an edited upstream uses its saved secrets where the form still shows them masked.
      const saved = a.vendor ? (p.editor.current().upstreams as Raw | undefined)?.[a.vendor] : undefined;
      const json = upstreamJson(a.upstream, saved);
      refuseMovedSecrets(a.vendor, a.upstream, saved, json);
      // Validated as the config would be, so a test never tries what saving would refuse.
      const cfg = validateConfig({ upstreams: { test: json } }, p.config.stateDir).upstreams.test!;
      // Named as saved, so its `${input:…}` values are the ones given to that upstream.
      const r = await p.catalog.probe(a.vendor && VENDOR_SLUG.test(a.vendor) ? a.vendor : 'test', cfg);
      return { ok: r.ok, era: r.era ?? null, tools: r.tools, error: r.error === undefined ? null : maskUrlsIn(r.error) };
    },
  };
}
