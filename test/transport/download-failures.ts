/**
 * A signed-link host that fails: a redirect with no place to go fails at once,
 * before anything else is sent; a server error is tried again, a bounded
 * number of times, and a file that comes on a later try is downloaded; a
 * refused connection, or one reset on every try, fails naming the network
 * error; a missing file, a refused signature or a web page fails at once,
 * the page not shown, and only a 4xx gets the hint that the link expired.
 * Requests are counted at the host.
 * Addresses and sizes: download-limits.ts; slow files and Stop:
 * hostile-links.ts.
 */
import type { ServerResponse } from 'node:http';

import { downloadSignedLink } from '../../nodes/shared/transport/download';
import { RETRY } from '../../nodes/shared/transport/retry';
import { withRetry } from '../helpers/limits';
import { withSandbox } from '../helpers/n8n';
import { failureOf, inNode } from './context';
import { startFileHost } from './file-host';

export function downloadFailures(): void {
	const sandbox = withSandbox();
	withRetry();

	type Answer = (res: ServerResponse) => void;
	const status =
		(code: number, headers: Record<string, string> = {}): Answer =>
		(res) => {
			res.writeHead(code, { 'Content-Type': 'text/plain', ...headers });
			res.end(`status ${code}`);
		};
	const file: Answer = (res) => {
		res.writeHead(200, { 'Content-Type': 'application/pdf' });
		res.end(Buffer.from('%PDF-1.4 report'));
	};

	/** A file host that answers in turn, then repeats the last, and notes each request. */
	async function scriptedHost(...answers: Answer[]) {
		const requests: string[] = [];
		const host = await startFileHost(sandbox, (req, res) => {
			requests.push(req.url ?? '');
			(answers[requests.length - 1] ?? answers.at(-1)!)(res);
		});
		return { ...host, requests };
	}

	it.each<[string, Answer]>([
		['a redirect without a Location', status(302)],
		['a redirect with an empty Location', status(301, { Location: '' })],
		['a redirect to a Location that is not a URL', status(302, { Location: 'http://[::1' })],
		['a missing file', status(404)],
		['a bad request (a signature the host does not accept)', status(400)],
	])('%s fails after one request', async (_name, answer) => {
		const host = await scriptedHost(answer);
		try {
			const error = await failureOf(host.credentials, async function () {
				return await downloadSignedLink.call(this, host.link);
			});
			// An item error with a hint, not a stray exception.
			expect(error.description).toEqual(expect.any(String));
			expect(host.requests).toEqual(['/report.pdf']);
		} finally {
			await host.close();
		}
	});

	it('a server error is tried again, and the file that comes on a later try is downloaded', async () => {
		const host = await scriptedHost(status(503), status(502), file);
		try {
			const downloaded = await inNode(host.credentials, async function () {
				return await downloadSignedLink.call(this, host.link);
			});
			expect(downloaded.data.toString()).toBe('%PDF-1.4 report');
			expect(host.requests).toHaveLength(3);
		} finally {
			await host.close();
		}
	});

	it(`a server error that lasts fails after ${RETRY.maxAttempts} tries, saying how many`, async () => {
		const host = await scriptedHost(status(500));
		try {
			const error = await failureOf(host.credentials, async function () {
				return await downloadSignedLink.call(this, host.link);
			});
			expect(host.requests).toHaveLength(RETRY.maxAttempts);
			expect(JSON.stringify(error)).toContain(String(RETRY.maxAttempts));
		} finally {
			await host.close();
		}
	});

	it('a refused connection fails naming the network error', async () => {
		const host = await scriptedHost(file);
		await host.close();
		const error = await failureOf(host.credentials, async function () {
			return await downloadSignedLink.call(this, host.link);
		});
		expect(JSON.stringify(error)).toContain('ECONNREFUSED');
	});

	it(`a connection reset on every try fails after ${RETRY.maxAttempts} tries, naming the network error`, async () => {
		const host = await scriptedHost((res) => res.socket?.destroy());
		try {
			const error = await failureOf(host.credentials, async function () {
				return await downloadSignedLink.call(this, host.link);
			});
			expect(host.requests).toHaveLength(RETRY.maxAttempts);
			expect(JSON.stringify(error)).toContain('ECONNRESET');
		} finally {
			await host.close();
		}
	});

	it("a server error's description does not carry the expired-link hint of a 4xx", async () => {
		const descriptionFor = async (answer: Answer) => {
			const host = await scriptedHost(answer);
			try {
				const error = await failureOf(host.credentials, async function () {
					return await downloadSignedLink.call(this, host.link);
				});
				return error.description;
			} finally {
				await host.close();
			}
		};
		const expired = await descriptionFor(status(403));
		expect(expired).toEqual(expect.any(String));
		expect(await descriptionFor(status(500))).not.toContain(expired);
	});

	it('a web page instead of the file: the error says so without showing the page', async () => {
		const host = await scriptedHost((res) => {
			res.writeHead(403, { 'Content-Type': 'text/html' });
			res.end('<html><body>Access Denied</body></html>');
		});
		try {
			const error = await failureOf(host.credentials, async function () {
				return await downloadSignedLink.call(this, host.link);
			});
			expect(error.message).toMatch(/\S.* \(HTTP 403\)$/);
			expect(`${error.message} ${error.description}`).not.toMatch(/[<>]|Access Denied/);
			expect(host.requests).toEqual(['/report.pdf']);
		} finally {
			await host.close();
		}
	});
}
