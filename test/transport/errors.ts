/**
 * Error mapping: the server's message from each error body shape (the API's
 * {"error":{…}} and the three others a proxy might answer, a blank one read as
 * none), the HTTP status, the hints (401, 403, 404 naming the id or else the
 * Base URL, 413, 429, cursor 400), web pages told from text that mentions a
 * tag, the base URL rule, and the API key never appearing in an error.
 */
import { apiRequest } from '../../nodes/shared/transport/request';
import { uploadFile } from '../../nodes/shared/transport/upload';
import { SANDBOX_KEYS, withSandbox } from '../helpers/n8n';
import { expectNoSecret, failureOf, inNode } from './context';
import { type FakeApi, startFakeApi } from './fake-api';
import { withRetry } from '../helpers/limits';

export function errorMapping(): void {
	const sandbox = withSandbox();
	withRetry();
	// A made-up key that the scripted server echoes back; it must never surface.
	const ECHOED = 'ib_live_example_key_echoed_back';

	describe('error bodies of every shape and status hints, from a scripted server', () => {
		let api: FakeApi;
		beforeAll(async () => (api = await startFakeApi()));
		afterAll(async () => await api.close());
		const credentials = () => ({ apiKey: ECHOED, baseUrl: api.baseUrl });
		const listTagsError = async () =>
			await failureOf(credentials(), async function () {
				return await apiRequest.call(this, 'listTags', {});
			});

		it.each([
			[
				'{"error":{"code","message","param"}}',
				{ error: { code: 'invalid_parameter', message: 'limit is too big', param: 'limit' } },
				'limit is too big (HTTP 400)',
				/parameter "limit"/,
			],
			['{"message"}', { message: 'Plain message' }, 'Plain message (HTTP 400)', undefined],
			['{"error":"..."}', { error: 'String error' }, 'String error (HTTP 400)', undefined],
			[
				'JSON:API errors',
				{ errors: [{ title: 'Invalid', detail: 'limit must be ≤ 200' }, { title: 'Also' }] },
				'Invalid: limit must be ≤ 200; Also (HTTP 400)',
				undefined,
			],
			['an unknown shape (status text)', { weird: true }, 'Bad Request (HTTP 400)', undefined],
			// Nothing to read in these: the status text stands in, as for an unknown shape.
			[
				'a blank message',
				{ error: { code: 'x', message: '  ' } },
				'Bad Request (HTTP 400)',
				undefined,
			],
			[
				'JSON:API errors without a title or detail',
				{ errors: [{ code: 'x' }] },
				'Bad Request (HTTP 400)',
				undefined,
			],
			['a JSON null', null, 'Bad Request (HTTP 400)', undefined],
			['an error of null', { error: null }, 'Bad Request (HTTP 400)', undefined],
		])('reads %s', async (_shape, body, message, description) => {
			api.answer({ status: 400, body });
			const error = await listTagsError();
			expect(error.message).toBe(message);
			expect(error.httpCode).toBe('400');
			if (description) expect(error.description).toMatch(description);
			expectNoSecret(error, ECHOED);
		});

		it('reads a plain-text body', async () => {
			// A GET is tried 4 times on a 5xx.
			api.answer(...Array.from({ length: 4 }, () => ({ status: 502, text: 'upstream down' })));
			const error = await listTagsError();
			expect(error.message).toBe('upstream down (HTTP 502)');
			expect(error.description).toMatch(/server had a problem.*Tried 4 times/);
		});

		// What Express (n8n's own address) answers to a path it does not know.
		const EXPRESS_404 =
			'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /v1/tags</pre>\n</body>\n</html>\n';

		it.each([
			['an HTML 404 (n8n itself as the Base URL)', 404, EXPRESS_404],
			['an HTML 403 (a website or proxy)', 403, '  <html><body>Forbidden</body></html>'],
			['an HTML comment first', 401, '<!-- proxy --><html><body>Login</body></html>'],
			['a doctype split over lines', 404, '<!DOCTYPE\n  html><html><body>Not Found</body></html>'],
			['a doctype, then a long indent', 404, `<!DOCTYPE${'\n' + ' '.repeat(16)}html><html></html>`],
			['a page that starts with <head>', 403, '<head><title>Forbidden</title></head>'],
			[
				'a page that starts with <head lang>',
				403,
				'<head lang="en"><title>Forbidden</title></head>',
			],
			['a page that starts with <body>', 401, '<body>Login</body>'],
			['a page that starts with <body class>', 401, '<body class="login">Login</body>'],
		])('%s: says a web page answered, never shows it', async (_case, status, page) => {
			api.answer({ status, text: page });
			const error = await listTagsError();
			expect(error.message).toBe(
				`The Base URL answered with a web page, not the API (HTTP ${status})`,
			);
			expect(error.description).toMatch(/^Check the Base URL in the credential/);
			expect(`${error.message} ${error.description}`).not.toMatch(/[<>]|Cannot GET|Forbidden/);
			expect(error.httpCode).toBe(String(status));
		});

		it("a text that only mentions a tag further on is the server's message, not a web page", async () => {
			api.answer({ status: 400, text: 'the <body> field is required' });
			expect((await listTagsError()).message).toBe('the <body> field is required (HTTP 400)');
		});

		it('without a message or a reason phrase, the error still says something before its status', async () => {
			api.answer({ status: 400, reason: '', body: { weird: true } });
			const error = await listTagsError();
			expect(error.message).toMatch(/\S.* \(HTTP 400\)$/);
			expect(error.httpCode).toBe('400');
		});

		it('401, 403 and 404 (no id in the path) each come with a hint of their own', async () => {
			const hints: unknown[] = [];
			for (const status of [401, 403, 404]) {
				api.answer({ status, body: { error: { code: 'x' } } });
				hints.push((await listTagsError()).description);
			}
			expect(hints).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
			expect(new Set(hints).size).toBe(3);
		});

		it('an HTML 502 from a proxy: a web page, with the server hint', async () => {
			api.answer(
				...Array.from({ length: 4 }, () => ({ status: 502, text: '<html>Bad Gateway</html>' })),
			);
			const error = await listTagsError();
			expect(error.message).toBe('The Base URL answered with a web page, not the API (HTTP 502)');
			expect(error.description).toMatch(/server had a problem.*Tried 4 times/);
		});

		it('413 explains the size limits', async () => {
			api.answer({
				status: 413,
				body: { error: { code: 'too_large', message: 'File too large', param: 'file' } },
			});
			const error = await failureOf(credentials(), async function () {
				return await uploadFile.call(this, 'uploadContactPhoto', {
					pathParams: { contact_id: '7d4c2a8e-59a1-4b7e-9d1f-2f3e4a5b6c7d' },
					fields: {},
					file: { data: Buffer.from('png'), fileName: 'me.png', mimeType: 'image/png' },
					rule: 'photo',
				});
			});
			expect(error.message).toBe('File too large (HTTP 413)');
			expect(error.description).toMatch(/photo or a document may be at most 10 MB, a report 25 MB/);
		});

		it('redacts the key when the server echoes it, in the message, description and body', async () => {
			api.answer({
				status: 401,
				body: {
					error: {
						code: 'unauthorized',
						message: `Invalid key ${ECHOED}`,
						param: `Bearer ${ECHOED}`,
					},
				},
			});
			const error = await listTagsError();
			expect(error.message).toBe('Invalid key [redacted] (HTTP 401)');
			expectNoSecret(error, ECHOED);
			expect(api.requests.at(-1)?.headers.authorization).toBe(`Bearer ${ECHOED}`);
		});
	});

	describe('hints for the sandbox answers', () => {
		it('401: check the key and whether its user was deactivated', async () => {
			const error = await failureOf(sandbox.credentials('revoked'), async function () {
				return await apiRequest.call(this, 'listTags', {});
			});
			expect(error.httpCode).toBe('401');
			expect(error.message).toBe('The API key is inactive (HTTP 401)');
			expect(error.description).toMatch(/Check the API key.*user who created it is deactivated/);
			expectNoSecret(error, SANDBOX_KEYS.revoked);
		});

		it('404 (an id in the path the account does not have) names the resource and the id', async () => {
			const id = '7d4c2a8e-59a1-4b7e-9d1f-2f3e4a5b6c7d';
			const error = await failureOf(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'updateContact', {
					pathParams: { contact_id: id },
					body: { city: 'X' },
				});
			});
			expect(error.httpCode).toBe('404');
			expect(error.description).toBe(
				`No contact "${id}" with this ID exists in the account the key belongs to.`,
			);
		});

		it('400 on cursor says the sort or filters changed', async () => {
			const firstPage = await inNode(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'listContacts', {
					query: { sort: 'first_name', limit: 2 },
				});
			});
			const error = await failureOf(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'listContacts', {
					query: { sort: 'last_name', limit: 2, cursor: String(firstPage.next_cursor) },
				});
			});
			expect(error.httpCode).toBe('400');
			expect(error.description).toMatch(/sort or the filters changed between pages/);
		});

		it('400 from the server keeps its message (unknown tag name)', async () => {
			const created = await inNode(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'createContact', {
					body: { first_name: 'Tagless', email: 'tagless@example.com' },
				});
			});
			const error = await failureOf(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'updateContact', {
					pathParams: { contact_id: String(created.id) },
					body: { tags: ['No Such Tag'] },
				});
			});
			expect(error.httpCode).toBe('400');
			expect(error.message).toMatch(/No Such Tag.*\(HTTP 400\)/);
			expect(error.description).toMatch(/"tags"/);
		});
	});

	describe('base URL', () => {
		it.each(['http://api.example.com', 'http://10.0.0.5:4010', 'http://localhost.example.com'])(
			'refuses plain http to %s and sends nothing',
			async (baseUrl) => {
				const error = await failureOf({ apiKey: ECHOED, baseUrl }, async function () {
					return await apiRequest.call(this, 'listTags', {});
				});
				expect(error.message).toBe('The Base URL must use https, not plain http');
				expect(error.description).toMatch(/loopback hosts \(localhost, 127\.0\.0\.0\/8, \[::1\]\)/);
				expectNoSecret(error, ECHOED);
			},
		);

		it('refuses a URL that is not a URL', async () => {
			const error = await failureOf(
				{ apiKey: ECHOED, baseUrl: 'api.example.com' },
				async function () {
					return await apiRequest.call(this, 'listTags', {});
				},
			);
			expect(error.message).toBe('The Base URL "api.example.com" is not a valid URL');
		});

		it.each([
			['localhost', (port: string) => `http://localhost:${port}`],
			['127.0.0.1 with a trailing slash', (port: string) => `http://127.0.0.1:${port}/`],
			['127.0.0.1 ending in /v1', (port: string) => `http://127.0.0.1:${port}/v1/`],
		])('accepts loopback http: %s', async (_name, url) => {
			const port = new URL(sandbox.baseUrl).port;
			const tags = await inNode(
				sandbox.credentials('acmeOwner', { baseUrl: url(port) }),
				async function () {
					return await apiRequest.call(this, 'listTags', { query: { limit: 1 } });
				},
			);
			expect(Array.isArray(tags.data)).toBe(true);
			expect((await sandbox.control.requests()).data.map((r) => r.path)).toEqual(['/v1/tags']);
		});
	});
}
