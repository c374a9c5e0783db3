/**
 * Where a signed-link download may go, how much it reads, and what name it
 * hands on: redirects only to https public hosts (or, for a loopback link, the
 * same loopback host), at most DOWNLOAD_MAX_REDIRECTS of them; never more than
 * DOWNLOAD_MAX_BYTES (the API's largest file, 25 MB); file names without path
 * separators, `..` or control characters. The sandbox's `/_redirect/to?url=…`
 * is a signed link that redirects anywhere.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { isUnsafeCharacter, safeFileName } from '../../nodes/shared/filenames';
import {
	DOWNLOAD_MAX_BYTES,
	DOWNLOAD_MAX_REDIRECTS,
	redirectProblem,
} from '../../nodes/shared/rules/links';
import { downloadSignedLink, fileNameOf } from '../../nodes/shared/transport/download';
import { paginate } from '../../nodes/shared/transport/pages';
import { withSandbox } from '../helpers/n8n';
import { drain, failureOf, inNode } from './context';
import { type FakeApi, startFakeApi } from './fake-api';

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
	test.each([
		['https://files.example.com/a', 'https://cdn.example.net/b', undefined],
		['https://files.example.com/a', 'http://cdn.example.net/b', 'it is not https (http)'],
		['https://files.example.com/a', 'ftp://cdn.example.net/b', 'it is not https (ftp)'],
		[
			'https://files.example.com/a',
			'https://169.254.169.254/latest/meta-data',
			'169.254.169.254 is a link-local or cloud metadata address',
		],
		[
			'https://files.example.com/a',
			'https://metadata.google.internal/computeMetadata/v1/',
			'metadata.google.internal is a cloud metadata address',
		],
		['https://files.example.com/a', 'https://10.1.2.3/', '10.1.2.3 is a private address'],
		['https://files.example.com/a', 'https://172.20.0.1/', '172.20.0.1 is a private address'],
		['https://files.example.com/a', 'https://192.168.1.1/', '192.168.1.1 is a private address'],
		['https://files.example.com/a', 'https://172.32.0.1/', undefined],
		[
			'https://files.example.com/a',
			'https://100.100.100.200/',
			'100.100.100.200 is a private (carrier-grade NAT) address',
		],
		[
			'https://files.example.com/a',
			'https://2852039166/',
			'169.254.169.254 is a link-local or cloud metadata address',
		],
		['https://files.example.com/a', 'https://0x7f.1/', '127.0.0.1 is an address of this machine'],
		[
			'https://files.example.com/a',
			'https://localhost/',
			'localhost is an address of this machine',
		],
		['https://files.example.com/a', 'https://[::1]/', '[::1] is an address of this machine'],
		['https://files.example.com/a', 'https://[fe80::1]/', '[fe80::1] is a link-local address'],
		[
			'https://files.example.com/a',
			'https://[fd00:ec2::254]/',
			'[fd00:ec2::254] is a private address',
		],
		[
			'https://files.example.com/a',
			'https://[::ffff:169.254.169.254]/',
			'[::ffff:a9fe:a9fe] is a link-local or cloud metadata address',
		],
		['https://files.example.com/a', 'https://[2606:4700::1111]/', undefined],
		['http://127.0.0.1:4010/files/a', 'http://127.0.0.1:4011/files/b', undefined],
		['http://127.0.0.1:4010/files/a', 'https://127.0.0.1:4011/files/b', undefined],
		['http://127.0.0.1:4010/files/a', 'http://localhost:4010/b', 'it is not https (http)'],
		['http://127.0.0.1:4010/files/a', 'https://10.0.0.1/b', '10.0.0.1 is a private address'],
		[
			'https://127.0.0.1:4010/files/a',
			'https://127.0.0.1:4011/b',
			'127.0.0.1 is an address of this machine',
		],
	])('from %s to %s: %s', (from, to, problem) => {
		expect(redirectProblem(new URL(from), new URL(to))).toBe(problem);
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

	describe('refused before anything is sent there', () => {
		let elsewhere: FakeApi;
		beforeEach(async () => (elsewhere = await startFakeApi({ status: 200, text: 'secret' })));
		afterEach(async () => await elsewhere.close());

		it('plain http to another host name', async () => {
			const to = `http://localhost:${new URL(elsewhere.baseUrl).port}/internal`;
			const error = await failureOf(sandbox.credentials(), async function () {
				return await downloadSignedLink.call(this, redirectingTo(to));
			});
			expect(error.message).toBe(
				'The file link redirects where a download may not go: it is not https (http)',
			);
			expect(error.description).toMatch(/only to https on a public host/);
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
				'The file link redirects where a download may not go: 169.254.169.254 is a link-local or cloud metadata address',
			);
		});
	});
});

/** A file host that streams `total` bytes in 1 MB chunks, announced or not, and counts what it got out. */
async function streamingHost(total: number, announce: boolean) {
	const sent = { bytes: 0, finished: false };
	const server: Server = createServer((_request, res) => {
		res.writeHead(200, {
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
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		link: `http://127.0.0.1:${(server.address() as AddressInfo).port}/report.pdf`,
		sent,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describe(`the size cap (${DOWNLOAD_MAX_BYTES} bytes, the API's largest file)`, () => {
	it('is the largest upload the API accepts: 25 MB', () => {
		expect(DOWNLOAD_MAX_BYTES).toBe(25 * 1024 * 1024);
	});

	it('reads a file of exactly the cap', async () => {
		const host = await streamingHost(DOWNLOAD_MAX_BYTES, false);
		try {
			const file = await inNode(sandbox.credentials(), async function () {
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
			const error = await failureOf(sandbox.credentials(), async function () {
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
			const error = await failureOf(sandbox.credentials(), async function () {
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
});

describe('file names', () => {
	const url = new URL('https://files.example.com/f/x');

	test.each([
		['attachment; filename="../../etc/passwd"', '_._etc_passwd'],
		['attachment; filename="..\\..\\boot.ini"', '_._boot.ini'],
		["attachment; filename*=UTF-8''%2E%2E%2F%2E%2E%2Fcron%0A.d", '_._cron.d'],
		['attachment; filename="report\u202Efdp.exe"', 'reportfdp.exe'],
		['attachment; filename=".."', undefined],
		['attachment; filename="  .hidden. "', 'hidden'],
		['attachment; filename="Résumé 2026.pdf"', 'Résumé 2026.pdf'],
	])('%s gives %s', (header, expected) => {
		expect(fileNameOf(header, url)).toBe(expected);
	});

	it('the name from the link itself is made safe too', () => {
		expect(fileNameOf(undefined, new URL('https://h/f/%2E%2E%2F%00secret.pdf'))).toBe(
			'_secret.pdf',
		);
	});

	it('no name has a path separator, a dot run, a control character or more than 120 characters', () => {
		fc.assert(
			fc.property(
				fc.string({
					unit: fc.constantFrom('.', '/', '\\', ' ', 'a', '\u0000', '\n', '\u202e', 'é'),
					maxLength: 300,
				}),
				(name) => {
					const safe = safeFileName(name);
					if (safe === undefined) return;
					expect(safe).not.toMatch(/[/\\]|\.\./);
					expect([...safe].filter(isUnsafeCharacter)).toEqual([]);
					expect(safe.length).toBeLessThanOrEqual(120);
					expect(safe).not.toMatch(/^[. ]|[. ]$/);
				},
			),
			{ numRuns: 2000 },
		);
	});

	it('a long name keeps its extension', () => {
		expect(safeFileName(`${'a'.repeat(300)}.pdf`)).toBe(`${'a'.repeat(116)}.pdf`);
	});
});
