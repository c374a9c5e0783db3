/**
 * Hostile mode: each route under `/_hostile/` serves its fault (docs/sandbox.md), read here as
 * raw HTTP. What the package does with each is tested in test/transport/hostile-*.test.ts,
 * test/transport/answers.property.ts,
 * test/transport/filenames.ts, test/triggers/webhook.hostile.ts and, in a real n8n,
 * test/e2e/hostile.e2e.test.ts.
 */
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

import { DEEP_ERROR_LEVELS, DEEP_ERROR_MESSAGE, insideLinks } from '../../sandbox/hostile';
import { useSandbox } from './support';

export function hostileRoutes(): void {
	const sandbox = useSandbox();
	const get = async (path: string) => await fetch(`${sandbox.baseUrl}/_hostile/${path}`);
	const json = async (path: string) => (await (await get(path)).json()) as Record<string, unknown>;

	describe('a hostile API at Base URL /_hostile/<fault>', () => {
		it('endless-pages: every page empty, each with a cursor never handed out before', async () => {
			const pages = [
				await json('endless-pages/v1/contacts'),
				await json('endless-pages/v1/contacts'),
			];
			expect(pages.map((page) => page.data)).toEqual([[], []]);
			expect(new Set(pages.map((page) => page.next_cursor)).size).toBe(2);
		});

		it('repeated-pages: the same records on every page, with a new cursor each time', async () => {
			const [first, second] = [
				await json('repeated-pages/v1/contacts'),
				await json('repeated-pages/v1/contacts?cursor=x'),
			];
			expect(second.data).toEqual(first.data);
			expect((first.data as unknown[]).length).toBe(first.total);
			expect(second.next_cursor).not.toBe(first.next_cursor);
		});

		it('overfull-pages: one new record a page, past the total of 2', async () => {
			const pages = [];
			for (let i = 0; i < 3; i++) pages.push(await json('overfull-pages/v1/contacts'));
			expect(pages.map((page) => page.total)).toEqual([2, 2, 2]);
			const ids = pages.flatMap((page) => (page.data as Array<{ id: string }>).map((r) => r.id));
			expect(new Set(ids).size).toBe(3);
			expect(pages.every((page) => typeof page.next_cursor === 'string')).toBe(true);
		});

		it(`deep-error: 400 in the API's error shape, its details nested ${DEEP_ERROR_LEVELS} levels`, async () => {
			const answer = await get('deep-error/v1/tags');
			expect(answer.status).toBe(400);
			const text = await answer.text();
			expect(
				text.startsWith(`{"error":{"code":"invalid_parameter","message":"${DEEP_ERROR_MESSAGE}"`),
			).toBe(true);
			expect(text).toContain('['.repeat(DEEP_ERROR_LEVELS));
			// Valid JSON, however deep (JSON.parse does not recurse).
			expect((JSON.parse(text) as { error: { param: string } }).error.param).toBe('limit');
		});

		it('inside-links[/<port>]: attachments whose signed links point inside', async () => {
			const port = Number(new URL(sandbox.baseUrl).port);
			for (const [path, n8nPort] of [
				['inside-links/v1/attachments', 5678],
				['inside-links/4321/v1/inspections/x/attachments', 4321],
			] as const) {
				const page = await json(path);
				expect((page.data as Array<{ url: string }>).map((a) => a.url)).toEqual(
					insideLinks(n8nPort, port),
				);
				expect(page.next_cursor).toBeNull();
			}
		});
	});

	/** The raw answer: status, headers and the bytes as sent, without any decompression. */
	function raw(
		path: string,
	): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
		return new Promise((resolve, reject) => {
			request(`${sandbox.baseUrl}/_hostile/${path}`, (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks),
					}),
				);
			})
				.on('error', reject)
				.end();
		});
	}

	describe('hostile answers without end (Base URL /_hostile/<fault>[/<n>])', () => {
		const MB = 1024 * 1024;

		it('gzip-bomb/<mb>: a few kB of gzip that unpack to a list page of <mb> MB', async () => {
			const answer = await raw('gzip-bomb/4/v1/contacts');
			expect(answer.headers['content-encoding']).toBe('gzip');
			expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
			expect(answer.body.length).toBeLessThan(20_000);
			const unpacked = gunzipSync(answer.body);
			expect(unpacked.length).toBeGreaterThan(4 * MB);
			expect(JSON.parse(unpacked.toString())).toMatchObject({ data: [], next_cursor: null });
		});

		it('huge-answer/<mb>[/announced]: a list page of <mb> MB, its length sent only when announced', async () => {
			const streamed = await raw('huge-answer/3/v1/contacts');
			expect(streamed.headers['content-length']).toBeUndefined();
			expect(streamed.body.length).toBeGreaterThan(3 * MB);
			expect(JSON.parse(streamed.body.toString())).toMatchObject({ data: [], next_cursor: null });
			const announced = await raw('huge-answer/3/announced/v1/contacts');
			expect(Number(announced.headers['content-length'])).toBe(announced.body.length);
		});

		it('drip-answer/<ms>: the headers at once, then a blank every <ms>, with no end', async () => {
			const stop = new AbortController();
			const answer = await fetch(`${sandbox.baseUrl}/_hostile/drip-answer/10/v1/contacts`, {
				signal: stop.signal,
			});
			expect(answer.status).toBe(200);
			const reader = answer.body!.getReader();
			let blanks = '';
			while (blanks.length < 3) blanks += Buffer.from((await reader.read()).value!).toString();
			expect(blanks.trim()).toBe('');
			stop.abort();
		});

		// The records are numbered as they are handed out; a growing total is always one more.
		it.each([
			['none', () => undefined],
			['huge', () => 1e12],
			['growing', (handedOut: number) => handedOut + 1],
		])('fresh-pages/%s: one new record a page, a new cursor, its total', async (mode, total) => {
			const pages = [];
			for (let i = 0; i < 3; i++) pages.push(await json(`fresh-pages/${mode}/v1/contacts`));
			const ids = pages.map((page) => (page.data as Array<{ id: string }>)[0].id);
			expect(new Set(ids).size).toBe(3);
			expect(new Set(pages.map((page) => page.next_cursor)).size).toBe(3);
			expect(pages.map((page) => page.total)).toEqual(
				ids.map((id) => total(Number(id.slice(-12)))),
			);
		});

		it('rate-limited/<s>: 429 with Retry-After <s>, every time', async () => {
			for (let i = 0; i < 2; i++) {
				const answer = await get('rate-limited/3/v1/contacts');
				expect([answer.status, answer.headers.get('retry-after')]).toEqual([429, '3']);
			}
		});
	});

	describe('hostile links', () => {
		it('slow-file: one byte every every_ms, announced in full', async () => {
			const answer = await get('slow-file?bytes=3&every_ms=20');
			expect(answer.headers.get('content-length')).toBe('3');
			expect((await answer.text()).length).toBe(3);
		});

		it('file-name: the file is named as asked, whatever the name', async () => {
			const name = 'CON<\u2028>.txt';
			const answer = await get(`file-name?name=${encodeURIComponent(name)}`);
			expect(answer.headers.get('content-disposition')).toBe(
				`attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
			);
		});

		it('subdomain: 307 to the same path on api.<host>, same port', async () => {
			const answer = await fetch(`${sandbox.baseUrl}/_hostile/subdomain/v1/tags?limit=1`, {
				redirect: 'manual',
			});
			expect(answer.status).toBe(307);
			expect(answer.headers.get('location')).toBe(
				`http://api.${new URL(sandbox.baseUrl).host}/v1/tags?limit=1`,
			);
		});

		it('an unknown fault is a 404', async () => {
			expect((await get('no-such-fault')).status).toBe(404);
		});
	});

	describe('a hostile webhook sender: POST /_hostile/deliveries', () => {
		let receiver: Server;
		const received: Array<{ secret?: string; id: string }> = [];

		beforeAll(async () => {
			receiver = createServer((req, res) => {
				let body = '';
				req.on('data', (chunk: Buffer) => (body += chunk.toString()));
				req.on('end', () => {
					const payload = JSON.parse(body) as { id: string };
					received.push({ secret: req.headers['x-webhook-secret'] as string, id: payload.id });
					res.writeHead(200).end('{}');
				});
			});
			await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		});
		afterAll(async () => await new Promise<void>((resolve) => receiver.close(() => resolve())));

		it('sends `count` deliveries with distinct ids of `id_bytes` bytes, with the secret', async () => {
			const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
			const answer = await fetch(`${sandbox.baseUrl}/_hostile/deliveries`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ url, secret: 's', count: 3, id_bytes: 100_000 }),
			});
			expect(await answer.json()).toEqual({ sent: 3, statuses: [200, 200, 200] });
			expect(received.map((r) => [r.secret, r.id.length])).toEqual([
				['s', 100_000],
				['s', 100_000],
				['s', 100_000],
			]);
			expect(new Set(received.map((r) => r.id)).size).toBe(3);
		});
	});
}
