import { hostname, networkInterfaces } from 'node:os';

const loopbackNames = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether a host to bind is a loopback address. */
export function isLoopback(host: string): boolean {
  return loopbackNames.has(host) || host.startsWith('127.');
}

/**
 * The `Host` header values a studio answers: its own address and port, the
 * loopback names when it is bound to one, every address of the machine when it
 * is bound to all, and the names the app adds. Any other Host is refused, so
 * a site whose name was made to resolve to this machine (DNS rebinding) gets
 * nothing even with a cookie.
 */
export function allowedHosts(bound: string, port: number, extra: readonly string[]): Set<string> {
  const names = new Set<string>([bound, ...extra]);
  if (isLoopback(bound)) for (const name of ['127.0.0.1', 'localhost', '[::1]']) names.add(name);
  if (bound === '0.0.0.0' || bound === '::') {
    names.add(hostname());
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) names.add(name);
    for (const addresses of Object.values(networkInterfaces()))
      for (const address of addresses ?? [])
        names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
  }
  const hosts = new Set<string>();
  for (const name of names) {
    const written = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
    hosts.add(`${written.toLowerCase()}:${port}`);
  }
  return hosts;
}
