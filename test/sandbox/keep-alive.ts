/**
 * Pooled connections: the sandbox keeps an idle keep-alive connection open past
 * a client's idle period, and the control client retries only idempotent calls
 * whose connection dropped.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SandboxControl } from '../../sandbox/client';
import { dropsFirstConnection, type DropsFirst } from '../helpers/drops-first';
import { useSandbox } from './support';

export function keepAlive(): void {
	const sandbox = useSandbox();

	/** Sends one keep-alive GET on `socket` and resolves with the status line of its answer. */
	function get(socket: Socket, path: string): Promise<string> {
		return new Promise((resolve, reject) => {
			if (!socket.writable) return reject(new Error('the server closed the idle connection'));
			let answer = '';
			const onData = (chunk: Buffer) => {
				answer += chunk.toString('latin1');
				const headerEnd = answer.indexOf('\r\n\r\n');
				const length = /content-length: (\d+)/i.exec(answer);
				if (headerEnd >= 0 && length && answer.length >= headerEnd + 4 + Number(length[1])) {
					socket.off('data', onData).off('close', onClose);
					resolve(answer.slice(0, answer.indexOf('\r\n')));
				}
			};
			const onClose = () => reject(new Error(`the server closed the connection: ${answer}`));
			socket.on('data', onData).once('close', onClose);
			socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
		});
	}

	it('keeps an idle pooled connection open past the 5 s after which Node would close it', async () => {
		const { port } = new URL(sandbox.baseUrl);
		const socket = connect(Number(port), '127.0.0.1');
		try {
			await new Promise((resolve) => socket.once('connect', resolve));
			expect(await get(socket, '/_sandbox/clock')).toBe('HTTP/1.1 200 OK');
			await sleep(6_000);
			expect(await get(socket, '/_sandbox/clock')).toBe('HTTP/1.1 200 OK');
		} finally {
			socket.destroy();
		}
	}, 20_000);

	describe('control client retries', () => {
		let server: DropsFirst;
		let requests: string[];
		let control: SandboxControl;
		beforeEach(async () => {
			server = await dropsFirstConnection('{}');
			requests = server.requests;
			control = new SandboxControl(server.url);
		});
		afterEach(async () => await server.close());

		it.each([
			['info', () => control.info(), 'GET /_sandbox/info'],
			['reset', () => control.reset(), 'POST /_sandbox/reset'],
			['setClock', () => control.setClock('2030-01-01T00:00:00Z'), 'POST /_sandbox/clock'],
			['clearRequests', () => control.clearRequests(), 'DELETE /_sandbox/requests'],
		])('repeats %s after a dropped connection', async (_name, call, request) => {
			await expect(call()).resolves.toEqual({});
			expect(requests).toEqual([request, request]);
		});

		it.each([
			['advanceClock', () => control.advanceClock(1000)],
			['createInspection', () => control.createInspection({ org: 'acme' })],
			['confirmInspection', () => control.confirmInspection('x')],
		])('never repeats %s, which is not idempotent', async (_name, call) => {
			await expect(call()).rejects.toThrow(/fetch failed/);
			expect(requests).toHaveLength(1);
		});
	});
}
