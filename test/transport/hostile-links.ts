/**
 * Signed links an attacker picks (a record's text, the URL field's default
 * `{{ $json.url }}`): the link's own address is checked like every redirect,
 * before anything is sent (names that resolve inside, rebinding, failed
 * lookups: test/transport/pinned-links.ts); a slow file ends at the
 * download's deadline; n8n's Stop ends a
 * download at once. The sandbox's hostile routes serve each case:
 * `/_hostile/inside-links` lists attachments whose links point inside,
 * `/_hostile/slow-file` drips a byte at a time (docs/sandbox.md). Stop ends the read even
 * when the helper leaves the body stream open.
 */
import { Readable } from 'node:stream';

import { DOWNLOAD_DEADLINE } from '../../nodes/shared/rules/links';
import { downloadSignedLink } from '../../nodes/shared/transport/download';
import { endedEarly } from '../../nodes/shared/transport/download-run';
import { readAll } from '../../nodes/shared/transport/pages';
import { insideLinks } from '../../sandbox/hostile';
import { withSandbox } from '../helpers/n8n';
import { downloadThrough, failureOf, inNode, TEST_NODE } from './context';
import { countingListener } from './fake-network';

export function hostileLinks(): void {
	const sandbox = withSandbox();
	const sandboxPort = () => Number(new URL(sandbox.baseUrl).port);

	describe("a link that points inside from the start (the hostile API's attachments)", () => {
		it("each is refused before anything is sent, naming why; none reaches n8n's port or this machine", async () => {
			const n8n = await countingListener();
			try {
				const credentials = sandbox.credentials('acmeOwner', {
					baseUrl: `${sandbox.baseUrl}/_hostile/inside-links/${n8n.port}`,
				});
				const attachments = await inNode(credentials, async function () {
					return await readAll.call(this, 'listAttachments');
				});
				const links = attachments.map((attachment) => String(attachment.url));
				expect(links).toEqual(insideLinks(n8n.port, sandboxPort()));
				const reasons: string[] = [];
				for (const link of links) {
					const error = await failureOf(sandbox.credentials(), async function () {
						return await downloadSignedLink.call(this, link);
					});
					expect(error.message).toMatch(/^The file link leads where a download may not go: /);
					reasons.push(error.message.replace(/^[^:]*: /, ''));
				}
				const here = new URL(sandbox.baseUrl).host;
				expect(reasons).toEqual([
					'169.254.169.254 is a link-local or cloud metadata address (169.254.0.0/16)',
					'10.0.0.5 is a private address (10.0.0.0/8)',
					`127.0.0.1:${n8n.port} is an address of this machine (127.0.0.0/8), not the Base URL's own address (${here})`,
					`[::1]:2375 is an address of this machine (::1/128), not the Base URL's own address (${here})`,
					`localhost:${sandboxPort()} is an address of this machine, not the Base URL's own address (${here})`,
					'100.100.100.200 is a shared (carrier-grade NAT) address (100.64.0.0/10)',
					'[::] is the unspecified address (::/128)',
				]);
				expect(n8n.connections()).toBe(0);
				expect((await sandbox.control.requests({ pathPrefix: '/_hostile/canary' })).data).toEqual(
					[],
				);
			} finally {
				await n8n.close();
			}
		});
	});

	describe('a file that arrives a byte at a time', () => {
		const slowFile = () => `${sandbox.baseUrl}/_hostile/slow-file?bytes=100000&every_ms=200`;
		const slowRequests = async () =>
			(await sandbox.control.requests({ pathPrefix: '/_hostile/slow-file' })).data;

		it('ends at the deadline for the whole download, not a timeout per byte', async () => {
			jest.replaceProperty(DOWNLOAD_DEADLINE, 'ms', 2_000);
			try {
				const error = await failureOf(sandbox.credentials(), async function () {
					return await downloadSignedLink.call(this, slowFile());
				});
				expect(error.message).toBe('The download did not finish within 2 seconds');
				expect(error.description).toMatch(/\S/);
				// The host was still sending (100,000 bytes at 5 a second): the connection was closed on it.
				const [request] = await slowRequests();
				expect(request.status).toBe(0);
			} finally {
				jest.restoreAllMocks();
			}
		});

		it('at the deadline it ships with (whole minutes), the error gives that number of minutes', () => {
			const run = { apiBase: new URL(sandbox.baseUrl), signal: AbortSignal.abort() };
			expect(DOWNLOAD_DEADLINE.ms % 60_000).toBe(0);
			expect(endedEarly(TEST_NODE, run).message.match(/\d+/g)).toEqual([
				String(DOWNLOAD_DEADLINE.ms / 60_000),
			]);
		});

		it("ends at once when the execution is stopped (n8n's Stop)", async () => {
			const stop = new AbortController();
			const running = downloadThrough(sandbox.credentials(), slowFile(), undefined, stop);
			while ((await slowRequests()).length === 0) await new Promise((r) => setTimeout(r, 100));
			stop.abort();
			// The deadline is minutes away and the file takes 500 s: only Stop can end it now.
			const { error } = await running;
			expect(error?.message).toBe('The download was stopped');
			// An item error with a hint, as every download error has.
			expect(error?.description).toEqual(expect.any(String));
			expect((await slowRequests()).map((request) => request.status)).toEqual([0]);
		});

		/**
		 * n8n's helper (axios) closes the body stream itself when the signal aborts; the download
		 * closes it too, so Stop does not depend on the helper doing so. A helper that leaves the
		 * stream open shows it: Stop while the body streams, and Stop that came before the read began.
		 */
		it.each([
			['while the body streams', false],
			['before the body is read', true],
		])(
			'ends at once when stopped %s, even if the helper leaves the body open',
			async (_when, early) => {
				const stop = new AbortController();
				const body = new Readable({ read: () => undefined });
				body.push('%PDF-1.4 '); // and never more
				const { error } = await downloadThrough(
					sandbox.credentials(),
					slowFile(),
					async () => {
						if (early) stop.abort();
						else setTimeout(() => stop.abort(), 50);
						return { statusCode: 200, headers: { 'content-type': 'application/pdf' }, body };
					},
					stop,
				);
				expect(error?.message).toBe('The download was stopped');
				expect(body.destroyed).toBe(true);
			},
		);
	});
}
