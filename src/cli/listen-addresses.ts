import { networkInterfaces } from 'node:os'
import { isLoopbackAddress } from '../core/http/request-trust.js'

/**
 * The addresses a server bound to `host` can be reached at, as origins for the banner:
 * for `0.0.0.0` every IPv4 address of the machine's interfaces, for `::` every address,
 * otherwise the bound one. Loopback first, so the first one works on this machine.
 */
export function listenOrigins(
  host: string,
  port: number,
  interfaces = networkInterfaces(),
): string[] {
  const wildcard = host === '0.0.0.0' || host === '::'
  if (!wildcard) return [origin(host, port)]
  const addresses: string[] = []
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      if (host === '0.0.0.0' && entry.family !== 'IPv4') continue
      // Link-local IPv6 needs a zone id a URL cannot carry usefully.
      if (entry.family === 'IPv6' && /^fe80:/i.test(entry.address)) continue
      addresses.push(entry.address)
    }
  }
  const sorted = [
    ...addresses.filter(isLoopbackAddress),
    ...addresses.filter((address) => !isLoopbackAddress(address)),
  ]
  return [...new Set(sorted)].map((address) => origin(address, port))
}

function origin(address: string, port: number) {
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`
}
