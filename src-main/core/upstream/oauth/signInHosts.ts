// Which hosts sign-in discovery may reach: metadata naming a loopback, private or link-local address
// as the sign-in server would make Working Set send GETs and a `POST /register` into the user's own
// machine or network on a remote server's word. Such a sign-in host is allowed only when
// the upstream itself is on such an address (a local or in-house server with a local sign-in server).
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
loopback.addSubnet('0.0.0.0', 8, 'ipv4');
loopback.addAddress('::', 'ipv6');
const privateNets = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
] as const)
  privateNets.addSubnet(net, bits, 'ipv4');
privateNets.addSubnet('fc00::', 7, 'ipv6');
const linkLocal = new BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');

/** The class of a literal address, or of `localhost` names; undefined for any other DNS name. */
export function literalClass(hostname: string): AddressClass | undefined {
  // A trailing dot names the same host (`localhost.`); brackets wrap an IPv6 literal.
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  const v = isIP(host);
  if (!v) return undefined;
  const type = v === 4 ? 'ipv4' : 'ipv6';
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  if (mapped) return literalClass(mapped);
  if (loopback.check(host, type)) return 'loopback';
  if (privateNets.check(host, type)) return 'private';
  if (linkLocal.check(host, type)) return 'link-local';
  return 'public';
}

export type Lookup = (hostname: string) => Promise<string[]>;

const systemLookup: Lookup = async (h) => (await dnsLookup(h, { all: true })).map((a) => a.address);

/** A host's class: a name is judged by every address it resolves to (one non-public address makes it non-public). */
export async function hostClass(hostname: string, lookup: Lookup = systemLookup): Promise<AddressClass> {
  const literal = literalClass(hostname);
  if (literal) return literal;
  const addresses = await lookup(hostname).catch(() => [] as string[]);
  for (const a of addresses) {
    const c = literalClass(a);
    if (c && c !== 'public') return c;
  }
  return 'public';
}

/** The rule: a sign-in host that is not public is allowed only for an upstream that is not public either. */
export function signInHostAllowed(signIn: AddressClass, upstream: AddressClass): boolean {
  return signIn === 'public' || upstream !== 'public';
}

/**
 * A fetch that refuses, before sending anything, a sign-in request to a host the rule does not allow
 * for the upstream at `serverUrl`; requests to the server's own host pass unchecked.
 */
export function guardSignInHosts(
  inner: typeof fetch,
  serverUrl: string,
  onRefused: (sentence: string) => void,
  lookup: Lookup = systemLookup,
): typeof fetch {
  const server = new URL(serverUrl);
  let upstreamClass: Promise<AddressClass> | undefined;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.host !== server.host) {
      const [target, own] = await Promise.all([hostClass(url.hostname, lookup), (upstreamClass ??= hostClass(server.hostname, lookup))]);
      if (!signInHostAllowed(target, own)) {
        const sentence = `The sign-in server the metadata names, ${url.origin}, is a ${target} address while the upstream ${server.origin} is public; Working Set sent it nothing. Ask the server's operator to name a public sign-in server, or reach the server on a local address too.`;
        onRefused(sentence);
        throw new SignInHostRefused(sentence);
      }
    }
    return inner(input, init);
  };
}

export class SignInHostRefused extends Error {
  override readonly name = 'SignInHostRefused';
}
