/**
 * A file host on this machine for signed-link downloads: it stands for the
 * API's own file host, so the credentials' Base URL is its address (plain
 * http is allowed only there). Used by download-limits and download-failures.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { withSandbox } from '../helpers/n8n';

type Sandbox = ReturnType<typeof withSandbox>;

export async function startFileHost(
	sandbox: Sandbox,
	answer: (req: IncomingMessage, res: ServerResponse) => void,
) {
	const server = createServer(answer);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		link: `${origin}/report.pdf`,
		credentials: sandbox.credentials('acmeOwner', { baseUrl: origin }),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
