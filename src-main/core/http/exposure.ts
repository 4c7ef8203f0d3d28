// Whether the listener may open where the config says, decided once at start-up from the config alone.
// Loopback with no TLS and no proxy is today's single-user listener, unchanged. Anything else (another
// address, or TLS or a proxy asked for) is "network" mode: every agent served must need its token, and
// the traffic must be encrypted, by Node's own TLS or by a TLS-terminating proxy we are told about.
// docs/guide/network.md lists each refusal's sentence.
import { BlockList, isIP } from 'node:net';
import { DEFAULT_AGENT_ID, type Config } from '../config/schema.js';
import { isLoopbackHost } from '../config/validate.js';

export type Exposure = {
  /** false: loopback only, exactly as before (Host must be a loopback name, no forwarded headers read). */
  network: boolean;
  tls?: { cert: string; key: string };
  /** The origin clients use through a proxy (`https://host[:port]`), lower case, no path. */
  publicOrigin?: string;
  /** Whether a peer address is one of `listen.trustedProxies` (only those may send X-Forwarded-*). */
  trusted: (address: string | undefined) => boolean;
};

export type ExposureDecision = { ok: true; exposure: Exposure } | { ok: false; message: string };

type ListenConfig = Pick<Config, 'listen' | 'agents' | 'defaultAgent'>;

const LOOPBACK: Exposure = { network: false, trusted: () => false };

/** A BlockList of the trusted proxies, or the entry that does not parse as an address or CIDR. */
export function proxyList(entries: readonly string[]): { list: BlockList } | { bad: string } {
  const list = new BlockList();
  for (const raw of entries) {
    const [addr = '', bits, extra] = raw.trim().split('/');
    const family = isIP(addr);
    const prefix = bits === undefined ? undefined : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!family || extra !== undefined || (prefix !== undefined && !(prefix <= (family === 4 ? 32 : 128)))) return { bad: raw };
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, prefix, type);
  }
  return { list };
}

/** Node reports IPv4 peers on a dual-stack socket as `::ffff:a.b.c.d`; the list holds plain IPv4. */
function peerMatches(list: BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4) return list.check(v4, 'ipv4');
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** ok with how the listener is exposed, or the sentence start-up refuses with (which setting to add). */
export function decideExposure(config: ListenConfig): ExposureDecision {
  const { host, port, tls, publicUrl, trustedProxies } = config.listen;
  const where = `"listen.host" is ${host}`;
  if (isLoopbackHost(host) && !tls && publicUrl === undefined && trustedProxies === undefined) return { ok: true, exposure: LOOPBACK };
  const open = config.agents
    .filter((a) => (a.id === DEFAULT_AGENT_ID ? config.defaultAgent : true))
    .filter((a) => !a.token && !a.auth)
    .map((a) => a.id);
  if (open.length) {
    const first = open[0]!;
    return {
      ok: false,
      message: `Refusing to serve ${host}:${port} beyond loopback: the agent${open.length > 1 ? 's' : ''} ${open.map((id) => `"${id}"`).join(', ')} ${open.length > 1 ? 'have' : 'has'} no token, and every agent served on a network needs one. Run \`mws agent token ${first}\` for each${first === DEFAULT_AGENT_ID ? ', or set "defaultAgent": false to stop serving /mcp' : ''}.`,
    };
  }
  if (publicUrl !== undefined && !tls && !trustedProxies?.length) {
    return {
      ok: false,
      message: `Refusing to serve ${host}:${port}: "listen.publicUrl" is set but neither "listen.trustedProxies" nor "listen.tls" is. Add the address (or CIDR) of the TLS-terminating proxy in front, e.g. "trustedProxies": ["10.0.0.5"], or "tls" to serve HTTPS here.`,
    };
  }
  if (trustedProxies?.length && publicUrl === undefined) {
    return {
      ok: false,
      message: `Refusing to serve ${host}:${port}: "listen.trustedProxies" is set but "listen.publicUrl" is not. Add the https:// address clients use through the proxy, e.g. "publicUrl": "https://mws.example.com".`,
    };
  }
  if (!tls && publicUrl === undefined) {
    return {
      ok: false,
      message: `Refusing to serve ${host}:${port} in the clear: ${where}, which is not loopback. Add "listen.tls": {"cert": "<file>", "key": "<file>"} to serve HTTPS, or "listen.publicUrl" and "listen.trustedProxies" when a TLS-terminating proxy sits in front; or use 127.0.0.1.`,
    };
  }
  let trusted: Exposure['trusted'] = () => false;
  if (trustedProxies?.length) {
    const parsed = proxyList(trustedProxies);
    if ('bad' in parsed) {
      return {
        ok: false,
        message: `Refusing to start: "listen.trustedProxies" holds ${JSON.stringify(parsed.bad)}, which is not an IP address or CIDR (such as 10.0.0.5 or 10.0.0.0/8).`,
      };
    }
    trusted = (address) => peerMatches(parsed.list, address);
  }
  return {
    ok: true,
    exposure: {
      network: true,
      ...(tls ? { tls } : {}),
      ...(publicUrl !== undefined ? { publicOrigin: new URL(publicUrl).origin.toLowerCase() } : {}),
      trusted,
    },
  };
}
