// Everything but tools, merged from every upstream and routed back: resources (URIs as the upstream
// gave them), resource templates, subscriptions, prompts (names prefixed like tools), completions and
// logging/setLevel. These are not part of the working set: every agent sees all of them.
import { ProtocolError, ProtocolErrorCode, UriTemplate, type ServerCapabilities } from '@modelcontextprotocol/server';
import type { Config } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { MODERN_REVISION, stripProtocolMeta } from '../protocol.js';
import { exposedName, splitExposedName } from '../toolbox/names.js';
import type { DownstreamPeer, Upstream } from '../upstream/types.js';

type Obj = Record<string, unknown>;

/** What the passthrough needs from the catalog: the upstreams, live. */
export type UpstreamSource = { vendors(): string[]; upstream(vendor: string): Upstream | undefined };

/** Pages fetched from one upstream for one merged list: a defence against a cursor that never ends. */
const MAX_PAGES = 50;

export class Passthrough {
  /** URI → vendor, from the last resources/list. */
  private readonly uriOwner = new Map<string, string>();
  /** Each vendor's resource templates, from the last resources/templates/list. */
  private readonly templates = new Map<string, UriTemplate[]>();
  /** Client sessions subscribed to each URI. */
  private readonly subscribers = new Map<string, number>();
  /** Exposed prompt name → [vendor, upstream name], from the last prompts/list. */
  private readonly promptOwner = new Map<string, [string, string]>();

  constructor(
    private readonly source: UpstreamSource,
    private config: Config,
    private readonly log: Logger,
  ) {}

  /** The config in force from now on (the app's reconfigure: a new object, never one changed in place). */
  reconfigure(next: Config): void {
    this.config = next;
  }

  /** Resources, prompts, completions and logging, each advertised only when some live upstream has it. */
  capabilities(): ServerCapabilities {
    const caps: ServerCapabilities = {};
    for (const u of this.live()) {
      const c = u.capabilities?.() ?? {};
      if (c.resources)
        caps.resources = { listChanged: true, ...(c.resources.subscribe || caps.resources?.subscribe ? { subscribe: true } : {}) };
      if (c.prompts) caps.prompts = { listChanged: true };
      if (c.completions) caps.completions = {};
      if (c.logging) caps.logging = {};
    }
    return caps;
  }

  async listResources(): Promise<Obj> {
    const lists = await this.gather('resources', 'resources/list', 'resources');
    const out: Obj[] = [];
    for (const [vendor, items] of lists) {
      for (const r of items) {
        if (typeof r.uri === 'string') this.uriOwner.set(r.uri, vendor);
        out.push(r);
      }
    }
    return { resources: out };
  }

  async listResourceTemplates(): Promise<Obj> {
    const lists = await this.gather('resources', 'resources/templates/list', 'resourceTemplates');
    const out: Obj[] = [];
    for (const [vendor, items] of lists) {
      const parsed: UriTemplate[] = [];
      for (const t of items) {
        if (typeof t.uriTemplate === 'string') {
          try {
            parsed.push(new UriTemplate(t.uriTemplate));
          } catch {
            /* an upstream's malformed template still lists; it just routes nothing */
          }
        }
        out.push(t);
      }
      this.templates.set(vendor, parsed);
    }
    return { resourceTemplates: out };
  }

  async readResource(params: Obj, peer: DownstreamPeer | undefined): Promise<Obj> {
    return this.byUri(params, 'resources/read', peer);
  }

  /**
   * A 2025-era upstream is subscribed on the client's behalf. A 2026-07-28 upstream has no
   * resources/subscribe (its updates come on a listen stream), so the subscription is only noted here.
   */
  async subscribe(params: Obj): Promise<Obj> {
    // One upstream subscription serves every client session: subscribed on the first, dropped after the last.
    const uri = String(params.uri ?? '');
    const n = this.subscribers.get(uri) ?? 0;
    const r = n === 0 ? await this.byUriLegacyOnly(params, 'resources/subscribe') : {};
    this.subscribers.set(uri, n + 1);
    return r;
  }

  async unsubscribe(params: Obj): Promise<Obj> {
    const uri = String(params.uri ?? '');
    const n = this.subscribers.get(uri) ?? 0;
    if (n > 1) {
      this.subscribers.set(uri, n - 1);
      return {};
    }
    this.subscribers.delete(uri);
    return this.byUriLegacyOnly(params, 'resources/unsubscribe');
  }

  private async byUriLegacyOnly(params: Obj, method: string): Promise<Obj> {
    const vendor = await this.uriTarget(String(params.uri ?? ''));
    if (isModern(this.source.upstream(vendor))) return {};
    return this.forward(vendor, method, params, undefined);
  }

  async listPrompts(): Promise<Obj> {
    const lists = await this.gather('prompts', 'prompts/list', 'prompts');
    const out: Obj[] = [];
    for (const [vendor, items] of lists) {
      for (const p of items) {
        if (typeof p.name !== 'string') continue;
        const name = exposedName(vendor, p.name, this.config.prefixNames);
        this.promptOwner.set(name, [vendor, p.name]);
        out.push({ ...p, name });
      }
    }
    return { prompts: out };
  }

  async getPrompt(params: Obj, peer: DownstreamPeer | undefined): Promise<Obj> {
    const [vendor, name] = await this.promptTarget(String(params.name ?? ''));
    return this.forward(vendor, 'prompts/get', { ...params, name }, peer);
  }

  async complete(params: Obj): Promise<Obj> {
    const ref = (params.ref ?? {}) as Obj;
    if (ref.type === 'ref/prompt') {
      const [vendor, name] = await this.promptTarget(String(ref.name ?? ''));
      return this.forward(vendor, 'completion/complete', { ...params, ref: { ...ref, name } }, undefined);
    }
    const uri = String(ref.uri ?? '');
    const vendor = await this.uriTarget(uri);
    return this.forward(vendor, 'completion/complete', params, undefined);
  }

  /**
   * Sets the log level on every 2025-era upstream that logs (2026-07-28 has no logging/setLevel);
   * the level is shared by all clients.
   */
  async setLevel(params: Obj): Promise<Obj> {
    const logging = this.live().filter((u) => u.capabilities?.()?.logging && !isModern(u));
    await Promise.all(
      logging.map((u) =>
        this.forward(u.vendor, 'logging/setLevel', params, undefined).catch((err: unknown) =>
          this.log.warn(`upstream "${u.vendor}" refused logging/setLevel: ${errorMessage(err)}`),
        ),
      ),
    );
    return {};
  }

  /** The vendor a URI belongs to: listed resources first, then templates, then the only candidate. */
  async uriTarget(uri: string): Promise<string> {
    const known = this.uriOwner.get(uri) ?? this.templateOwner(uri);
    if (known) return known;
    const candidates = this.live().filter((u) => u.capabilities?.()?.resources);
    if (candidates.length === 1) return candidates[0]!.vendor;
    // Not seen yet: list once (a client may read a URI it learned elsewhere), then decide.
    await Promise.all([this.listResources(), this.listResourceTemplates()]);
    const found = this.uriOwner.get(uri) ?? this.templateOwner(uri);
    if (found) return found;
    throw new ProtocolError(
      -32002,
      `Resource not found: no upstream lists or templates the URI "${uri}". List resources (or resource templates) to see what is available.`,
      { uri },
    );
  }

  private templateOwner(uri: string): string | undefined {
    for (const [vendor, list] of this.templates) if (list.some((t) => t.match(uri) !== null)) return vendor;
    return undefined;
  }

  private async promptTarget(name: string): Promise<[string, string]> {
    const hit = this.promptOwner.get(name) ?? this.splitPrompt(name);
    if (hit) return hit;
    await this.listPrompts();
    const again = this.promptOwner.get(name);
    if (again) return again;
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `No prompt named "${name}". List prompts to see the names (they carry their upstream's prefix, like tools).`,
    );
  }

  private splitPrompt(name: string): [string, string] | undefined {
    if (!this.config.prefixNames) {
      const only = this.live().filter((u) => u.capabilities?.()?.prompts);
      return only.length === 1 ? [only[0]!.vendor, name] : undefined;
    }
    const { vendor, tool } = splitExposedName(name);
    return vendor && this.source.vendors().includes(vendor) ? [vendor, tool] : undefined;
  }

  private async byUri(params: Obj, method: string, peer: DownstreamPeer | undefined): Promise<Obj> {
    const uri = String(params.uri ?? '');
    return this.forward(await this.uriTarget(uri), method, params, peer);
  }

  private async forward(vendor: string, method: string, params: Obj, peer: DownstreamPeer | undefined): Promise<Obj> {
    const u = this.source.upstream(vendor);
    if (!u?.request)
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The upstream "${vendor}" is not available; try again when it is up.`);
    const { _meta: _, ...rest } = params;
    const result = await u.request(method, rest, { timeoutMs: this.config.timeouts.callMs, ...(peer ? { peer } : {}) });
    return stripProtocolMeta(result);
  }

  /** Every live upstream's items of one list, all pages; an upstream that fails is left out (and logged). */
  private async gather(capability: 'resources' | 'prompts', method: string, key: string): Promise<Array<[string, Obj[]]>> {
    const having = this.live().filter((u) => u.capabilities?.()?.[capability]);
    return Promise.all(
      having.map(async (u): Promise<[string, Obj[]]> => {
        const items: Obj[] = [];
        try {
          let cursor: string | undefined;
          for (let page = 0; page < MAX_PAGES; page++) {
            const r = await u.request!(method, cursor ? { cursor } : {}, { timeoutMs: this.config.timeouts.listMs });
            const got = r[key];
            if (Array.isArray(got)) items.push(...(got as Obj[]));
            cursor = typeof r.nextCursor === 'string' && r.nextCursor ? r.nextCursor : undefined;
            if (!cursor) break;
          }
        } catch (err) {
          this.log.warn(`upstream "${u.vendor}" did not answer ${method}: ${errorMessage(err)}`);
        }
        return [u.vendor, items];
      }),
    );
  }

  private live(): Upstream[] {
    const out: Upstream[] = [];
    for (const v of this.source.vendors()) {
      const u = this.source.upstream(v);
      if (u && u.info().status === 'up' && u.request) out.push(u);
    }
    return out;
  }
}

function isModern(u: Upstream | undefined): boolean {
  return u?.info().era === MODERN_REVISION;
}
