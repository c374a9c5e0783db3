/** Loopback port helpers. */
import { createServer } from 'node:net';

const LOOPBACK = '127.0.0.1';

function listenOnce(port: number): Promise<number | undefined> {
	return new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(undefined));
		server.listen(port, LOOPBACK, () => {
			const address = server.address();
			const bound = typeof address === 'object' && address ? address.port : undefined;
			server.close(() => resolve(bound));
		});
	});
}

/** Whether `port` can be bound on the loopback interface right now. */
export async function isPortFree(port: number): Promise<boolean> {
	return (await listenOnce(port)) === port;
}

/** A port the system just handed out on loopback (for servers that cannot take port 0). */
export async function freePort(): Promise<number> {
	const port = await listenOnce(0);
	if (port === undefined) throw new Error('Could not get a free loopback port');
	return port;
}
