/**
 * The client's address, the one key of every per-client limit (`services/accounts/throttle.ts`). X-Forwarded-For is written by
 * whoever sends the request, so it is read only when the request comes from a proxy the operator named in
 * TRUST_PROXY, and then only as far as the proxies named there wrote it: its right-most address that is not itself a
 * trusted proxy. Without TRUST_PROXY (the default, `npm start` serving the web itself) the socket's address is the
 * client's, whatever the header says.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One trusted address or network: an address and the number of leading bits that must match. */
export interface ProxyRange {
  address: Address;
  bits: number;
}

/**
 * An address written the one usual way: IPv4 as four decimal parts (not `127.1` or `0x7f.0.0.1`, which ipaddr.js
 * also reads), or IPv6. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is its IPv4 address, as Node reports the
 * peers of a dual-stack socket that way.
 */
function parseAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) return unmapped(ipaddr.IPv6.parse(text));
  return null;
}

function unmapped(address: ipaddr.IPv6): Address {
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** `10.0.0.0/8`, `fd00::/8`, `::ffff:10.0.0.0/104` (the same as `10.0.0.0/8`) or a single address. */
function parseRange(text: string): ProxyRange | null {
  const slash = text.indexOf('/');
  if (slash < 0) {
    const address = parseAddress(text);
    return address ? { address, bits: address.kind() === 'ipv4' ? 32 : 128 } : null;
  }
  const bitsText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  const head = text.slice(0, slash);
  if (ipaddr.IPv4.isValidFourPartDecimal(head)) {
    return bits <= 32 ? { address: ipaddr.IPv4.parse(head), bits } : null;
  }
  if (!ipaddr.IPv6.isValid(head) || bits > 128) return null;
  const address = ipaddr.IPv6.parse(head);
  if (address.isIPv4MappedAddress() && bits >= 96) return { address: address.toIPv4Address(), bits: bits - 96 };
  return { address, bits };
}

/**
 * TRUST_PROXY: addresses or networks separated by commas; empty trusts none.
 * @throws Error naming the entry that is not an address or a network
 */
export function parseTrustedProxies(text: string): ProxyRange[] {
  const ranges: ProxyRange[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const range = parseRange(entry);
    if (!range) throw new Error(`"${entry}" is not an IP address or a CIDR network such as 10.0.0.0/8`);
    ranges.push(range);
  }
  return ranges;
}

function trusted(address: Address, proxies: readonly ProxyRange[]): boolean {
  return proxies.some((proxy) => {
    if (address instanceof ipaddr.IPv4) {
      return proxy.address instanceof ipaddr.IPv4 && address.match(proxy.address, proxy.bits);
    }
    return proxy.address instanceof ipaddr.IPv6 && address.match(proxy.address, proxy.bits);
  });
}

/**
 * The client's address of a request from `socketAddress` with this X-Forwarded-For: the socket's unless it is a
 * trusted proxy; otherwise the header is read from the right (each proxy appends the address it was reached from),
 * passing trusted proxies, up to the first address that is not one. An entry that is not an address stops the walk at
 * the proxy that passed it on, so that a forged entry never becomes a new identity. When every hop is trusted, the
 * furthest one is the client.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  proxies: readonly ProxyRange[],
): string {
  const socket = socketAddress ? parseAddress(socketAddress) : null;
  if (!socket) return socketAddress ?? '';
  if (proxies.length === 0 || !trusted(socket, proxies) || !forwardedFor) return socket.toString();
  const hops = forwardedFor.split(',').map((part) => part.trim());
  let client = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i] ?? '');
    if (!hop) break;
    client = hop;
    if (!trusted(hop, proxies)) break;
  }
  return client.toString();
}
