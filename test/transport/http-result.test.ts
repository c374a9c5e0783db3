/**
 * One request as the transport sees it (`resultOf`): whatever n8n's helper
 * does, an answer of any status, a network failure or another error comes
 * back as a value, never as a throw; and the helpers that read an answer's body.
 */
import { errorBody } from '../../nodes/shared/transport/error-body';
import { resultOf } from '../../nodes/shared/transport/request';
import { parseJson } from '../../nodes/shared/transport/retry';

describe('resultOf', () => {
	it('an answer of any status, with its headers and its body as bytes', async () => {
		const result = await resultOf(
			Promise.resolve({
				statusCode: 503,
				statusMessage: 'Service Unavailable',
				headers: { 'retry-after': '3' },
				body: Buffer.from('{"error":"busy"}'),
			}),
		);
		expect(result).toEqual({
			kind: 'answered',
			answer: {
				status: 503,
				statusText: 'Service Unavailable',
				headers: { 'retry-after': '3' },
				body: Buffer.from('{"error":"busy"}'),
			},
		});
	});

	it('a body the client handed back as text becomes bytes; no headers become none', async () => {
		const result = await resultOf(Promise.resolve({ statusCode: 200, body: 'plain' }));
		expect(result).toMatchObject({
			kind: 'answered',
			answer: { headers: {}, body: Buffer.from('plain') },
		});
	});

	it('an answer without a body (a 204) has an empty body', async () => {
		const result = await resultOf(Promise.resolve({ statusCode: 204, headers: {} }));
		expect(result).toEqual({
			kind: 'answered',
			answer: { status: 204, headers: {}, body: Buffer.alloc(0) },
		});
	});

	it('a refused connection, however deep n8n wrapped it', async () => {
		const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
			code: 'ECONNREFUSED',
		});
		const wrapped = Object.assign(new Error('The service refused the connection'), { cause });
		expect(await resultOf(Promise.reject(wrapped))).toEqual({
			kind: 'failed',
			failure: { kind: 'refused' },
			message: 'The service refused the connection',
		});
	});

	it('a reset connection', async () => {
		expect(await resultOf(Promise.reject(new Error('socket hang up')))).toEqual({
			kind: 'failed',
			failure: { kind: 'network', code: 'ECONNRESET', detail: 'ECONNRESET' },
			message: 'socket hang up',
		});
	});

	it('anything else is an error with its message', async () => {
		expect(await resultOf(Promise.reject(new Error('Invalid URL')))).toEqual({
			kind: 'error',
			message: 'Invalid URL',
		});
		expect(await resultOf(Promise.reject('a string'))).toEqual({
			kind: 'error',
			message: 'a string',
		});
	});
});

describe('reading a body', () => {
	it('parseJson: JSON, an empty body as {}, or not JSON', () => {
		expect(parseJson(Buffer.from('{"a":1}'))).toEqual({ ok: true, value: { a: 1 } });
		expect(parseJson(Buffer.from('  \n'))).toEqual({ ok: true, value: {} });
		expect(parseJson(Buffer.from('{"a":'))).toEqual({ ok: false });
	});

	it("errorBody: an error answer's JSON, else its text", () => {
		expect(errorBody(Buffer.from('{"message":"no"}'))).toEqual({ message: 'no' });
		expect(errorBody(Buffer.from('upstream down'))).toBe('upstream down');
	});
});
