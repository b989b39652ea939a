/**
 * Loopback hosts: `localhost` and its subdomains (RFC 6761), `127.0.0.0/8` and `[::1]`. What is
 * addressed to one never leaves the machine it is read on.
 */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])

/** `hostname` as a parsed URL gives it (the WHATWG parser has already normalised it). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return LOOPBACK_HOSTS.has(host) || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host)
}

export function isLoopback(url: URL): boolean {
  return isLoopbackHost(url.hostname)
}
