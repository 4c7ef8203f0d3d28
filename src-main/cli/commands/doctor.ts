// `mws doctor`: what stands between a person and a working setup, each finding one sentence with its
// fix — the config, the port, the state folder, each upstream, each client's file and the search
// model. Exit code 1 when any finding is a problem, so a script can gate on it.
import { access, constants } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { MwsError } from '../../core/errors.js';
import type { Config } from '../../core/config/schema.js';
import type { ControlApi, UpstreamRow } from '../../core/control/api.js';
import { upstreamFailure } from '../../shared/errorWords.js';
import { statusPhrase } from '../../shared/statusWords.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { runningInstance } from '../instance.js';
import type { Io } from '../output.js';
import { table } from '../table.js';
import { nextStep } from '../daily/nextStep.js';
import { instanceOf } from '../daily/here.js';
import { clientStates, type ClientState } from './client.js';

export type Finding = { check: string; level: 'ok' | 'problem' | 'note'; text: string };

const ok = (check: string, text: string): Finding => ({ check, level: 'ok', text });
const problem = (check: string, text: string): Finding => ({ check, level: 'problem', text });
const note = (check: string, text: string): Finding => ({ check, level: 'note', text });

/** Whether something else listens on the port: a bind that fails with EADDRINUSE. */
function portTaken(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    srv.listen(port, host, () => srv.close(() => resolve(undefined)));
  });
}

/** The folder itself when it exists, else the nearest parent that does (where it would be created). */
async function writable(dir: string): Promise<{ at: string; error?: string }> {
  for (let d = dir; ; d = dirname(d)) {
    try {
      await access(d, constants.F_OK);
    } catch {
      if (dirname(d) === d) return { at: d, error: 'ENOENT' };
      continue;
    }
    try {
      await access(d, constants.W_OK);
      return { at: d };
    } catch (err) {
      return { at: d, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
    }
  }
}

async function instanceFindings(config: Config, api: ControlApi | undefined): Promise<Finding[]> {
  if (api) return [ok('instance', `Working Set is running at ${(await api.status({})).url}.`)];
  const { host, port } = config.listen;
  if (port === 0) return [problem('instance', 'Working Set is not running; start it with `mws serve` (or open the app).')];
  const err = await portTaken(host, port);
  if (err?.code === 'EADDRINUSE')
    return [
      problem(
        'port',
        `Working Set is not running, and port ${port} on ${host} is taken by another program: stop that program, or give Working Set another port (\`mws serve --port N\`, or listen.port in the config).`,
      ),
    ];
  if (err)
    return [
      problem(
        'port',
        `Port ${port} on ${host} cannot be opened (${err.code ?? err.message}): set listen.host and listen.port in the config to an address of this machine.`,
      ),
    ];
  return [
    problem(
      'instance',
      `Working Set is not running; start it with \`mws serve\` (or open the app). Port ${port} on ${host} is free for it.`,
    ),
  ];
}

async function stateFindings(config: Config): Promise<Finding> {
  const w = await writable(config.stateDir);
  if (!w.error)
    return ok(
      'state folder',
      w.at === config.stateDir
        ? `The state folder ${config.stateDir} is writable.`
        : `The state folder ${config.stateDir} will be created in ${w.at}.`,
    );
  return problem(
    'state folder',
    `The state folder ${config.stateDir} cannot be written (${w.error} at ${w.at}): give your user write access to it, or set stateDir in the config to a folder you own.`,
  );
}

export function upstreamFindings(rows: UpstreamRow[]): Finding[] {
  if (!rows.length)
    return [
      note('upstreams', 'No upstreams yet: add one with `mws upstream add NAME --url URL`, or `mws import` the servers your clients use.'),
    ];
  return rows.map((u) => {
    const check = `upstream ${u.vendor}`;
    if (u.status === 'up') return ok(check, `Upstream "${u.vendor}" is up with ${u.toolCount} tools.`);
    const step = nextStep(u);
    if (u.status === 'starting' || u.status === 'off') return note(check, `Upstream "${u.vendor}" ${statusPhrase(u)}; ${step}.`);
    const target = 'url' in u.config ? { url: u.config.url } : 'command' in u.config ? { command: u.config.command } : {};
    const why = u.lastError && u.status === 'down' ? `: ${upstreamFailure(u.lastError, target).replace(/\.$/, '')}` : '';
    return problem(
      check,
      `Upstream "${u.vendor}" ${statusPhrase(u)}${why}. ${step ? `${step[0]!.toUpperCase()}${step.slice(1)}.` : ''}`.trim(),
    );
  });
}

export function clientFindings(states: ClientState[]): Finding[] {
  return states.flatMap((s) => {
    const check = `client ${s.client}`;
    if (s.error)
      return [
        problem(
          check,
          `${s.name}'s file ${s.file} cannot be read (${s.error.replace(/\.$/, '')}); fix it so ${s.name} can start its servers.`,
        ),
      ];
    if (!s.exists) return [];
    const out: Finding[] = s.stale.map((x) =>
      problem(
        check,
        `${s.name}'s entry "${x.name}" in ${s.file} points at ${x.url}, not at this instance: \`mws client connect ${s.client}\` points it here.`,
      ),
    );
    if (s.links.length)
      out.push(ok(check, `${s.name} points at agent ${[...new Set(s.links.map((l) => l.agent))].join(', ')} (${s.file}).`));
    else if (!s.stale.length)
      out.push(note(check, `${s.name} is set up here but does not use Working Set: \`mws client connect ${s.client}\` points it here.`));
    return out;
  });
}

export async function runDoctor(io: Io, f: ConfigFlags & { json: boolean }): Promise<number> {
  const findings: Finding[] = [];
  let config: Config | undefined;
  let path: string | undefined;
  try {
    const loaded = await cliConfig(f);
    config = loaded.config;
    path = loaded.path;
    findings.push(
      loaded.fileError
        ? problem(
            'config',
            `${loaded.fileError.replace(/\.?$/, '.')} The running instance keeps its last good config until the file is fixed; it reads the file again when it is saved.`,
          )
        : loaded.exists
          ? ok('config', `The config ${loaded.path} is valid.`)
          : note('config', `There is no config file at ${loaded.path}: the defaults are used. \`mws init\` writes one.`),
    );
  } catch (err) {
    if (!(err instanceof MwsError)) throw err;
    findings.push(problem('config', err.message));
  }
  if (config) {
    const api = await runningInstance(config).catch((err: unknown) => {
      findings.push(problem('instance', (err as Error).message));
      return undefined;
    });
    findings.push(...(await instanceFindings(config, api)));
    findings.push(await stateFindings(config));
    if (api) {
      findings.push(...upstreamFindings(await api.upstreams({})));
      const search = (await api.status({})).semanticSearch;
      if (search?.state === 'off')
        findings.push(
          problem(
            'search model',
            `${search.warning ?? 'The search model could not be loaded'} Search works on words alone until it is fixed.`,
          ),
        );
      else
        findings.push(
          ok(
            'search model',
            `The search model is ${search?.state === 'ready' ? 'ready' : search?.state === 'loading' ? 'loading' : 'loaded on the first search'}.`,
          ),
        );
    } else findings.push(note('upstreams', 'Upstreams and the search model are checked when Working Set runs.'));
    findings.push(...clientFindings(await clientStates(await instanceOf(config, api), config.serverName)));
  }
  const problems = findings.filter((x) => x.level === 'problem').length;
  if (f.json) io.out(JSON.stringify({ config: path ?? null, problems, findings }));
  else {
    io.out(
      table(
        ['check', 'result', 'finding'],
        findings.map((x) => [x.check, x.level, x.text]),
      ),
    );
    io.out('');
    io.out(problems ? `${problems} ${problems === 1 ? 'problem' : 'problems'} to fix.` : 'No problems found.');
  }
  return problems ? 1 : 0;
}
