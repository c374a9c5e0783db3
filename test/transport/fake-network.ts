/**
 * A DNS and a network the test decides, under n8n's real HTTP helper:
 *
 * - DNS: `dns.promises.lookup` (n8n's own lookup) and `dns.lookup` (what a
 *   socket connecting to a name uses) answer `answer(name, asked)`, `asked`
 *   counting that name's lookups from 1, as a hostile DNS that changes its
 *   answer (rebinding) would. Every lookup is recorded.
 * - Network: a socket asked to connect to an address in `routes` reaches that
 *   port on this machine (a "public" file host served locally); any other
 *   address off this machine fails as an unreachable network, so nothing
 *   leaves the machine. Every connection asked for is recorded as
 *   `host:port`, names included (a socket given a name looks it up itself).
 *
 * `restore()` puts the real DNS and network back.
 */
import dns from 'node:dns';
import net from 'node:net';
import { createServer, type Server as HttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

export type Answer = string[] | NodeJS.ErrnoException;

export interface FakeNetwork {
	lookups: string[];
	connections: string[];
	restore: () => void;
}

const notFound = (name: string) =>
	Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });

const isLoopback = (host: string) => host === '::1' || host.startsWith('127.');

type ConnectOptions = { host?: unknown; port?: unknown };

/** The options object a `Socket.prototype.connect` call carries, in any of its call forms. */
function connectOptions(args: unknown[]): ConnectOptions | undefined {
	const [first] = args;
	if (Array.isArray(first)) return first[0] as ConnectOptions;
	return typeof first === 'object' && first !== null ? (first as ConnectOptions) : undefined;
}

/**
 * The call's arguments with the options replaced by a copy that goes to `port` on this machine:
 * the caller's own object keeps the address it asked for (TLS verifies a certificate against it).
 */
function rerouted(args: unknown[], port: number): unknown[] {
	const [first, ...rest] = args;
	const to = (options: ConnectOptions) => ({ ...options, host: '127.0.0.1', port });
	if (!Array.isArray(first)) return [to(first as ConnectOptions), ...rest];
	const [options, ...others] = first as unknown[];
	return [
		Object.assign([to(options as ConnectOptions), ...others], first, {
			0: to(options as ConnectOptions),
		}),
		...rest,
	];
}

export function fakeNetwork(
	routes: Record<string, number>,
	answer: (name: string, asked: number) => Answer,
): FakeNetwork {
	const lookups: string[] = [];
	const connections: string[] = [];
	const resolve = (name: string): Answer => {
		lookups.push(name);
		return answer(name, lookups.filter((asked) => asked === name).length);
	};
	const entries = (addresses: string[]) =>
		addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

	const promised = jest.spyOn(dns.promises, 'lookup').mockImplementation((async (name: string) => {
		const found = resolve(name);
		if (found instanceof Error) throw found;
		return entries(found);
	}) as unknown as typeof dns.promises.lookup);
	const callback = jest.spyOn(dns, 'lookup').mockImplementation(((
		name: string,
		options: unknown,
		done?: unknown,
	) => {
		const reply = (typeof options === 'function' ? options : done) as (...args: unknown[]) => void;
		const all = typeof options === 'object' && (options as { all?: boolean } | null)?.all;
		const found = resolve(name);
		process.nextTick(() => {
			if (found instanceof Error) return reply(found);
			if (found.length === 0) return reply(notFound(name));
			const list = entries(found);
			return all ? reply(null, list) : reply(null, list[0].address, list[0].family);
		});
	}) as unknown as typeof dns.lookup);

	const connect = net.Socket.prototype.connect;
	const socket = jest.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (
		this: net.Socket,
		...args: unknown[]
	) {
		const options = connectOptions(args);
		const host = typeof options?.host === 'string' ? options.host : undefined;
		if (options && host !== undefined) {
			connections.push(`${host}:${String(options.port)}`);
			const routed = routes[host];
			if (routed !== undefined)
				return (connect as (...a: unknown[]) => net.Socket).apply(this, rerouted(args, routed));
			if (net.isIP(host) !== 0 && !isLoopback(host)) {
				const error = Object.assign(new Error(`connect ENETUNREACH ${host}`), {
					code: 'ENETUNREACH',
				});
				process.nextTick(() => this.destroy(error));
				return this;
			}
		}
		return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
	} as typeof net.Socket.prototype.connect);

	return {
		lookups,
		connections,
		restore: () => {
			promised.mockRestore();
			callback.mockRestore();
			socket.mockRestore();
		},
	};
}

/**
 * The test's certificate, for *.example.test and 93.184.216.34, trusted by nothing but these
 * tests: `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 * -subj "/CN=*.example.test" -addext "subjectAltName=DNS:*.example.test,IP:93.184.216.34"`.
 */
export const TEST_CERTIFICATE = {
	cert: readFileSync(path.join(__dirname, 'tls', 'example.test.crt')),
	key: readFileSync(path.join(__dirname, 'tls', 'example.test.key')),
};

export interface SeenRequest {
	/** The TLS server name the client sent (SNI). */
	servername: string | false | null;
	host: string | undefined;
	path: string | undefined;
}

/** An https file host on this machine with the test's certificate; it records what each request says. */
export async function httpsFileHost(
	answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ port: number; seen: SeenRequest[]; close: () => Promise<void> }> {
	const seen: SeenRequest[] = [];
	const server: HttpsServer = createServer(TEST_CERTIFICATE, (req, res) => {
		seen.push({
			servername: (req.socket as TLSSocket).servername,
			host: req.headers.host,
			path: req.url,
		});
		answer(req, res);
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	return {
		port: (server.address() as AddressInfo).port,
		seen,
		close: () =>
			new Promise<void>((done) => {
				server.closeAllConnections();
				server.close(() => done());
			}),
	};
}

/** A port on this machine that counts the connections made to it (n8n's own port, a Docker socket…). */
export async function countingListener(): Promise<{
	port: number;
	connections: () => number;
	close: () => Promise<void>;
}> {
	const sockets: net.Socket[] = [];
	const server = net.createServer((socket) => {
		sockets.push(socket);
		socket.destroy();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		connections: () => sockets.length,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
