/**
 * Where a signed-link download may go and how much it reads: every address
 * (the link's own and each redirect's) only https to a public host, or the
 * Base URL's own address on this machine; at most DOWNLOAD_MAX_REDIRECTS
 * redirects; never more than DOWNLOAD_MAX_BYTES (the API's largest file,
 * 25 MB). The sandbox's `/_redirect/to?url=…` is a signed link that redirects
 * anywhere. File names: test/transport/filenames.ts; links that point
 * inside from the start, slow files: test/transport/hostile-links.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	addressProblem,
	DOWNLOAD_DEADLINE,
	DOWNLOAD_MAX_BYTES,
	DOWNLOAD_MAX_REDIRECTS,
} from '../../nodes/shared/rules/links';
import { downloadSignedLink } from '../../nodes/shared/transport/download';
import { paginate } from '../../nodes/shared/transport/pages';
import { withSandbox } from '../helpers/n8n';
import { drain, failureOf, inNode } from './context';
import { startFileHost } from './file-host';
import { type FakeApi, startFakeApi } from './fake-api';

export function downloadLimits(): void {
	const sandbox = withSandbox();

	/** A signed link of the sandbox that leads to `url` through one redirect. */
	const redirectingTo = (url: string) =>
		`${sandbox.baseUrl}/_redirect/to?url=${encodeURIComponent(url)}`;

	let document: IDataObject;
	beforeAll(async () => {
		const attachments = await inNode(sandbox.credentials(), async function () {
			return await drain(paginate.call(this, 'listAttachments', { query: { kind: 'document' } }));
		});
		document = attachments.find((a) => typeof a.url === 'string') as IDataObject;
	});

	describe('redirects', () => {
		const API = 'https://api.example.com';
		const SANDBOX = 'http://127.0.0.1:4010';
		test.each([
			[API, 'https://cdn.example.net/b', undefined],
			[API, 'http://cdn.example.net/b', 'it is not https (http)'],
			[API, 'ftp://cdn.example.net/b', 'it is not https (ftp)'],
			[
				API,
				'https://169.254.169.254/latest/meta-data',
				'169.254.169.254 is a link-local or cloud metadata address (169.254.0.0/16)',
			],
			[
				API,
				'https://metadata.google.internal/computeMetadata/v1/',
				'metadata.google.internal is a cloud metadata address',
			],
			[API, 'https://10.1.2.3/', '10.1.2.3 is a private address (10.0.0.0/8)'],
			[API, 'https://172.20.0.1/', '172.20.0.1 is a private address (172.16.0.0/12)'],
			[API, 'https://192.168.1.1/', '192.168.1.1 is a private address (192.168.0.0/16)'],
			[API, 'https://172.32.0.1/', undefined],
			[
				API,
				'https://100.100.100.200/',
				'100.100.100.200 is a shared (carrier-grade NAT) address (100.64.0.0/10)',
			],
			[
				API,
				'https://2852039166/',
				'169.254.169.254 is a link-local or cloud metadata address (169.254.0.0/16)',
			],
			[API, 'https://0x7f.1/', '127.0.0.1 is an address of this machine (127.0.0.0/8)'],
			[API, 'https://localhost/', 'localhost is an address of this machine'],
			[API, 'https://[::1]/', '[::1] is an address of this machine (::1/128)'],
			[API, 'https://[fe80::1]/', '[fe80::1] is a link-local address (fe80::/10)'],
			[API, 'https://[fd00:ec2::254]/', '[fd00:ec2::254] is a private address (fc00::/7)'],
			[
				API,
				'https://[::ffff:169.254.169.254]/',
				'[::ffff:a9fe:a9fe] is an IPv4-mapped address of 169.254.169.254, a link-local or cloud metadata address (169.254.0.0/16)',
			],
			[API, 'https://[2606:4700::1111]/', undefined],
			[
				API,
				'https://100.64.0.1/',
				'100.64.0.1 is a shared (carrier-grade NAT) address (100.64.0.0/10)',
			],
			[API, 'https://[::]/', '[::] is the unspecified address (::/128)'],
			[API, 'https://0.0.0.0/', '0.0.0.0 is a "this network" address (0.0.0.0/8)'],
			[
				API,
				'https://[64:ff9b::a9fe:a9fe]/',
				'[64:ff9b::a9fe:a9fe] is a NAT64 address (64:ff9b::/96)',
			],
			[
				API,
				'https://[2002:a9fe:a9fe::]/',
				'[2002:a9fe:a9fe::] is a 6to4 address of 169.254.169.254, a link-local or cloud metadata address (169.254.0.0/16)',
			],
			[API, 'https://[2002:808:808::]/', undefined],
			[SANDBOX, 'http://127.0.0.1:4010/files/b', undefined],
			[
				SANDBOX,
				'http://127.0.0.1:4011/files/b',
				"127.0.0.1:4011 is an address of this machine (127.0.0.0/8), not the Base URL's own address (127.0.0.1:4010)",
			],
			[
				SANDBOX,
				'https://127.0.0.1:4010/files/b',
				"127.0.0.1:4010 is an address of this machine (127.0.0.0/8), not the Base URL's own address (127.0.0.1:4010)",
			],
			[
				SANDBOX,
				'http://localhost:4010/b',
				"localhost:4010 is an address of this machine, not the Base URL's own address (127.0.0.1:4010)",
			],
			[SANDBOX, 'https://10.0.0.1/b', '10.0.0.1 is a private address (10.0.0.0/8)'],
			[SANDBOX, 'https://files.example.com/b', undefined],
			[API, 'https://api.example.com/files/b', undefined],
			[API, 'http://api.example.com/files/b', 'it is not https (http)'],
		])('Base URL %s, to %s: %s', (base, to, problem) => {
			expect(addressProblem(new URL(to), new URL(base))).toBe(problem);
		});

		it('follows a redirect to the same loopback host (the sandbox) and names the file from its answer', async () => {
			const file = await inNode(sandbox.credentials(), async function () {
				return await downloadSignedLink.call(this, redirectingTo(String(document.url)));
			});
			expect(file.data.length).toBe(document.size_bytes);
			expect(file.fileName).toBe(document.filename);
		});

		it(`follows ${DOWNLOAD_MAX_REDIRECTS} redirects in a row, not one more`, async () => {
			let link = String(document.url);
			for (let hop = 0; hop < DOWNLOAD_MAX_REDIRECTS; hop++) link = redirectingTo(link);
			const file = await inNode(sandbox.credentials(), async function () {
				return await downloadSignedLink.call(this, link);
			});
			expect(file.data.length).toBe(document.size_bytes);
			const error = await failureOf(sandbox.credentials(), async function () {
				return await downloadSignedLink.call(this, redirectingTo(link));
			});
			expect(error.message).toBe(
				`The file link redirects where a download may not go: more than ${DOWNLOAD_MAX_REDIRECTS} redirects in a row`,
			);
		});

		it("does not read a redirect's body: one that never ends is left, and the file it points to is read", async () => {
			// With the whole download's deadline at 10 s, a redirect body read to its end fails the test.
			jest.replaceProperty(DOWNLOAD_DEADLINE, 'ms', 10_000);
			const host = await startFileHost(sandbox, (request, res) => {
				if (request.url === '/file.pdf') {
					res.writeHead(200, { 'Content-Type': 'application/pdf' });
					return void res.end('%PDF-1.4 report');
				}
				res.writeHead(302, { Location: '/file.pdf', 'Content-Type': 'text/html' });
				res.write('<html>moved'); // and never ends
			});
			try {
				const file = await inNode(host.credentials, async function () {
					return await downloadSignedLink.call(this, host.link);
				});
				expect(file).toMatchObject({ fileName: 'file.pdf', mimeType: 'application/pdf' });
				expect(file.data.toString()).toBe('%PDF-1.4 report');
			} finally {
				jest.restoreAllMocks();
				await host.close();
			}
		});

		describe('refused before anything is sent there', () => {
			let elsewhere: FakeApi;
			beforeEach(async () => (elsewhere = await startFakeApi({ status: 200, text: 'secret' })));
			afterEach(async () => await elsewhere.close());

			it('another port of this machine', async () => {
				const to = `${elsewhere.baseUrl}/internal`;
				const error = await failureOf(sandbox.credentials(), async function () {
					return await downloadSignedLink.call(this, redirectingTo(to));
				});
				expect(error.message).toBe(
					`The file link redirects where a download may not go: ${new URL(to).host} is an address of this machine (127.0.0.0/8), not the Base URL's own address (${new URL(sandbox.baseUrl).host})`,
				);
				expect(error.description).toMatch(/only to https on a public address/);
				expect(elsewhere.requests).toEqual([]);
			});

			it('a cloud metadata address', async () => {
				const error = await failureOf(sandbox.credentials(), async function () {
					return await downloadSignedLink.call(
						this,
						redirectingTo('https://169.254.169.254/latest/meta-data/'),
					);
				});
				expect(error.message).toBe(
					'The file link redirects where a download may not go: 169.254.169.254 is a link-local or cloud metadata address (169.254.0.0/16)',
				);
			});
		});
	});

	/**
	 * A file host that answers `status` with `total` bytes in 1 MB chunks, announced or not, and
	 * counts what it got out.
	 */
	async function streamingHost(total: number, announce: boolean, status = 200) {
		const sent = { bytes: 0, finished: false };
		const host = await startFileHost(sandbox, (_request, res) => {
			res.writeHead(status, {
				'Content-Type': 'application/pdf',
				...(announce ? { 'Content-Length': String(total) } : {}),
			});
			const chunk = Buffer.alloc(1024 * 1024, 1);
			const writeMore = () => {
				while (sent.bytes < total) {
					const piece = chunk.subarray(0, Math.min(chunk.length, total - sent.bytes));
					sent.bytes += piece.length;
					if (!res.write(piece)) return void res.once('drain', writeMore);
				}
				sent.finished = true;
				res.end();
			};
			res.on('close', () => res.destroy());
			writeMore();
		});
		return { ...host, sent };
	}

	describe(`the size cap (${DOWNLOAD_MAX_BYTES} bytes, the API's largest file)`, () => {
		it('is the largest upload the API accepts: 25 MB', () => {
			expect(DOWNLOAD_MAX_BYTES).toBe(25 * 1024 * 1024);
		});

		it.each([
			['its size not announced', false],
			['its size announced', true],
		])('reads a file of exactly the cap, %s', async (_how, announce) => {
			const host = await streamingHost(DOWNLOAD_MAX_BYTES, announce);
			try {
				const file = await inNode(host.credentials, async function () {
					return await downloadSignedLink.call(this, host.link);
				});
				expect(file.data.length).toBe(DOWNLOAD_MAX_BYTES);
			} finally {
				await host.close();
			}
		});

		it('stops reading an unannounced body one chunk past the cap', async () => {
			const total = 64 * 1024 * 1024;
			const host = await streamingHost(total, false);
			try {
				const error = await failureOf(host.credentials, async function () {
					return await downloadSignedLink.call(this, host.link);
				});
				expect(error.message).toBe('The file is larger than 25 MB, the most a download reads');
				expect(host.sent.finished).toBe(false);
				expect(host.sent.bytes).toBeLessThan(total);
			} finally {
				await host.close();
			}
		});

		it('refuses an announced size over the cap before reading the body', async () => {
			const total = 64 * 1024 * 1024;
			const host = await streamingHost(total, true);
			try {
				const error = await failureOf(host.credentials, async function () {
					return await downloadSignedLink.call(this, host.link);
				});
				expect(error.message).toBe(
					'The file is larger than 25 MB, the most a download reads (it announced 64 MB)',
				);
				expect(host.sent.finished).toBe(false);
			} finally {
				await host.close();
			}
		});

		it("reads no more than the start of an error answer's endless body, and fails naming the answer", async () => {
			const total = 64 * 1024 * 1024;
			const host = await streamingHost(total, false, 404);
			try {
				const error = await failureOf(host.credentials, async function () {
					return await downloadSignedLink.call(this, host.link);
				});
				expect(JSON.stringify(error)).toContain('404');
				expect(host.sent.finished).toBe(false);
				expect(host.sent.bytes).toBeLessThan(total);
			} finally {
				await host.close();
			}
		});
	});
}
