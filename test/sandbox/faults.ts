/** Fault injection on v1 routes: every kind, one-shot matching, probabilities, and the --faults spec. */
import { request } from 'node:http';
import { parseFaultSpec } from '../../sandbox/faults';
import { expectError, useSandbox } from './support';

export function faults(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();

	afterEach(async () => await sandbox.control.clearFaults());

	/** A raw request that reports a reset connection instead of throwing. */
	function rawPost(path: string, body: unknown): Promise<{ status?: number; error?: string }> {
		return new Promise((resolve) => {
			const url = new URL(path, sandbox.baseUrl);
			const req = request(
				url,
				{
					method: 'POST',
					headers: {
						Authorization: 'Bearer ib_sandbox_acme_owner',
						'Content-Type': 'application/json',
					},
				},
				(res) => {
					res.resume();
					res.on('end', () => resolve({ status: res.statusCode }));
				},
			);
			req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
			req.end(JSON.stringify(body));
		});
	}

	describe('one-shot faults', () => {
		it.each([
			['500', 500],
			['502', 502],
			['503', 503],
		] as const)(
			'%s answers with that status in the errorBodyShapes shape, once',
			async (kind, status) => {
				await sandbox.control.queueFaults({ kind });
				expectError(await api().get('/v1/tags'), status);
				expect((await api().get('/v1/tags')).status).toBe(200);
			},
		);

		it('429 carries Retry-After; 429-no-retry-after carries none', async () => {
			await sandbox.control.queueFaults(
				{ kind: '429', retry_after: 7 },
				{ kind: '429-no-retry-after' },
			);
			const first = await api().get('/v1/tags');
			expectError(first, 429);
			expect(first.headers.get('retry-after')).toBe('7');
			const second = await api().get('/v1/tags');
			expectError(second, 429);
			expect(second.headers.get('retry-after')).toBeNull();
		});

		it('an error fault does not apply a write', async () => {
			await sandbox.control.queueFaults({ kind: '503', method: 'POST' });
			expectError(
				await api().post('/v1/contacts', { first_name: 'A', email: 'fault503@example.com' }),
				503,
			);
			expect((await api().get('/v1/contacts?email=fault503@example.com')).body.total).toBe(0);
		});

		it('reset applies a write, then drops the connection without an answer', async () => {
			await sandbox.control.queueFaults({ kind: 'reset', method: 'POST', path: '/v1/contacts' });
			const result = await rawPost('/v1/contacts', {
				first_name: 'Maybe',
				email: 'maybe-received@example.com',
			});
			expect(result.status).toBeUndefined();
			expect(result.error).toMatch(/ECONNRESET|socket hang up/);
			expect((await api().get('/v1/contacts?email=maybe-received@example.com')).body.total).toBe(1);
			const logged = (await sandbox.control.requests({ method: 'POST' })).data.at(-1);
			expect(logged).toMatchObject({ status: 0, fault: 'reset' });
		});

		it('reset makes fetch fail', async () => {
			await sandbox.control.queueFaults({ kind: 'reset' });
			await expect(api().get('/v1/tags')).rejects.toThrow();
		});

		it('slow delays the answer, which is then normal', async () => {
			await sandbox.control.queueFaults({ kind: 'slow', delay_ms: 300 });
			const started = Date.now();
			const res = await api().get('/v1/tags?limit=1');
			expect(Date.now() - started).toBeGreaterThanOrEqual(290);
			expect(res.status).toBe(200);
		});

		it('malformed answers with a body that is not JSON', async () => {
			await sandbox.control.queueFaults({ kind: 'malformed' });
			const res = await fetch(`${sandbox.baseUrl}/v1/tags`, {
				headers: { Authorization: 'Bearer ib_sandbox_acme_owner' },
			});
			expect(res.status).toBe(200);
			expect(res.headers.get('content-type')).toContain('application/json');
			await expect(res.json()).rejects.toThrow();
		});

		it('matches by method and path prefix, in queue order, and leaves control requests alone', async () => {
			await sandbox.control.clearRequests();
			await sandbox.control.queueFaults(
				{ kind: '500', method: 'PATCH' },
				{ kind: '502', path: '/v1/inspections' },
				{ kind: '503' },
			);
			await sandbox.control.info();
			expect((await api().get('/v1/tags')).status).toBe(503);
			expect((await api().get('/v1/contacts?limit=1')).status).toBe(200);
			expect((await api().get('/v1/inspections?limit=1')).status).toBe(502);
			const contact = (await api().get('/v1/contacts?limit=1')).body.data[0];
			expect((await api().patch(`/v1/contacts/${contact.id}`, { notes: 'x' })).status).toBe(500);
			expect(
				(await sandbox.control.requests()).data.filter((e) => e.fault).map((e) => e.fault),
			).toEqual(['503', '502', '500']);
		});
	});

	describe('probabilities', () => {
		it('a probability of 1 hits every v1 request; 0 none', async () => {
			await sandbox.control.setFaults({ probabilities: { '502': 1 } });
			for (let i = 0; i < 5; i++) expect((await api().get('/v1/tags')).status).toBe(502);
			await sandbox.control.setFaults({ probabilities: { '502': 0 } });
			expect((await api().get('/v1/tags')).status).toBe(200);
		});

		it('mixes kinds in about the given shares', async () => {
			await sandbox.control.setFaults({ probabilities: { '500': 0.25, '429': 0.25 } });
			const statuses: number[] = [];
			for (let i = 0; i < 200; i++) statuses.push((await api().get('/v1/tags?limit=1')).status);
			const share = (s: number) => statuses.filter((x) => x === s).length / statuses.length;
			expect(share(500)).toBeGreaterThan(0.15);
			expect(share(429)).toBeGreaterThan(0.15);
			expect(share(200)).toBeGreaterThan(0.35);
		});

		it('refuses probabilities over 1 in total', async () => {
			await expect(
				sandbox.control.setFaults({ probabilities: { '500': 0.7, '503': 0.5 } }),
			).rejects.toThrow(/400/);
		});
	});

	describe('--faults spec', () => {
		it('parses kind=probability pairs and slow-ms', () => {
			expect(parseFaultSpec('500=0.05, reset=0.02,slow=0.1,slow-ms=2000')).toEqual({
				probabilities: { '500': 0.05, reset: 0.02, slow: 0.1 },
				slowMs: 2000,
			});
			expect(() => parseFaultSpec('teapot=0.1')).toThrow(/teapot/);
			expect(() => parseFaultSpec('500=2')).toThrow();
			expect(() => parseFaultSpec('500=0.6,502=0.6')).toThrow(/more than 1/);
		});
	});
}
