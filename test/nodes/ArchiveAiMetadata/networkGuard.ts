import dns from 'node:dns';
import net from 'node:net';

/**
 * A resolver and connector for tests of addresses outside loopback, which tests must never connect to. While
 * installed, every name lookup in this process goes through `names` (anything else but `localhost` fails with
 * ENOTFOUND), and every connection attempt to an address outside 127.0.0.0/8 and ::1 (written in the URL, or a
 * name's answer) is recorded in `attempts` and failed with ECONNREFUSED before a socket connects.
 */
export interface NetworkGuard {
	/** Addresses outside loopback something tried to connect to. */
	attempts: string[];
	/** Names looked up through the guard. */
	lookups: string[];
	restore(): void;
}

const isLoopback = (address: string) =>
	/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1';

type LookupCallback = (error: Error | null, address?: unknown, family?: number) => void;

export function installNetworkGuard(names: Record<string, string>): NetworkGuard {
	const attempts: string[] = [];
	const lookups: string[] = [];
	const originalLookup = dns.lookup;
	// eslint-disable-next-line @typescript-eslint/unbound-method -- put back by restore(), and called with the socket as this
	const originalConnect = net.Socket.prototype.connect;
	const refuse = (address: string) =>
		Object.assign(
			new Error(`connect ECONNREFUSED ${address} (refused by the test's network guard)`),
			{
				code: 'ECONNREFUSED',
			},
		);

	const guardedLookup = (hostname: string, options: unknown, callback?: LookupCallback) => {
		const done = (typeof options === 'function' ? options : callback) as LookupCallback;
		const all =
			typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
		lookups.push(hostname);
		const address = hostname === 'localhost' ? '127.0.0.1' : names[hostname.toLowerCase()];
		process.nextTick(() => {
			if (address === undefined)
				return done(
					Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
				);
			if (!isLoopback(address)) {
				attempts.push(address);
				return done(refuse(address));
			}
			const family = address.includes(':') ? 6 : 4;
			if (all) done(null, [{ address, family }]);
			else done(null, address, family);
		});
	};
	(dns as { lookup: unknown }).lookup = guardedLookup;

	net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
		const first = args[0];
		const options = (Array.isArray(first) ? first[0] : first) as { host?: string; path?: string };
		const host = typeof options === 'object' && options !== null ? options.host : undefined;
		const bare = host?.replace(/^\[(.*)\]$/, '$1');
		if (bare !== undefined && net.isIP(bare) !== 0 && !isLoopback(bare)) {
			attempts.push(bare);
			process.nextTick(() => this.destroy(refuse(bare)));
			return this;
		}
		return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
	};

	return {
		attempts,
		lookups,
		restore: () => {
			(dns as { lookup: unknown }).lookup = originalLookup;
			net.Socket.prototype.connect = originalConnect;
		},
	};
}
