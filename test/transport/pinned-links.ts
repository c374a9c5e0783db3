/**
 * A signed link's host name is looked up once, every address it finds is
 * judged by the special-purpose table, and the download connects to the
 * address it checked (nodes/shared/transport/link-address.ts): through n8n's
 * real HTTP helper, axios and Node's https agent, over a DNS and a network the
 * test decides (./fake-network.ts), to an https file host on this machine that
 * stands for a public one. The test trusts its own certificate as a system
 * would trust a real one (`ca`, added to each request); nothing else is
 * changed on the way.
 *
 * Each guard has a test that fails without it: a rebinding name (public when
 * checked, 127.0.0.1 after) never leads to a connection to 127.0.0.1; the
 * certificate is verified against the name, not the address; a name that
 * resolves to a special-purpose address, or cannot be looked up, is refused
 * before anything is connected; an n8n without a lookup for nodes refuses
 * names.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { downloadSignedLink } from '../../nodes/shared/transport/download';
import { withExecuteContext } from '../helpers/n8n';
import {
	type Answer,
	countingListener,
	fakeNetwork,
	type FakeNetwork,
	httpsFileHost,
	TEST_CERTIFICATE,
} from './fake-network';

export function pinnedLinks(): void {
	/** Stands for the API: a Base URL off this machine, so no address is the sandbox's. */
	const CREDENTIALS = { apiKey: 'ib_test_pinned_key', baseUrl: 'https://api.example.test' };
	const PUBLIC_V4 = '93.184.216.34';
	const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';
	/**
	 * A host name of its own for each test: n8n's lookup keeps an answer for a second, so a name
	 * another test just looked up would not be asked again. The certificate covers *.example.test.
	 */
	let NAME = '';
	let SECOND = '';
	let named = 0;

	/** Downloads `link` through n8n's helper; `olderN8n` takes away the lookup n8n 2 gives nodes. */
	async function download(link: string, { olderN8n = false } = {}) {
		return await withExecuteContext(
			async function () {
				const real = this.helpers;
				const helpers = {
					...real,
					httpRequest: async (options: IHttpRequestOptions) =>
						await real.httpRequest({
							...options,
							agentOptions: { ...options.agentOptions, ca: TEST_CERTIFICATE.cert },
						}),
					...(olderN8n && { getSecureEgressFilter: undefined }),
				};
				const context = Object.create(this, { helpers: { value: helpers } }) as typeof this;
				return await downloadSignedLink.call(context, link);
			},
			{ credentials: CREDENTIALS },
		);
	}

	let host: Awaited<ReturnType<typeof httpsFileHost>>;
	let network: FakeNetwork | undefined;
	beforeEach(async () => {
		named++;
		NAME = `files-${named}.example.test`;
		SECOND = `second-${named}.example.test`;
		host = await httpsFileHost((req, res) => {
			if (req.url === '/moved') {
				res.writeHead(302, { Location: `https://${SECOND}:${host.port}/report.pdf` });
				return void res.end();
			}
			res.writeHead(200, { 'Content-Type': 'application/pdf' });
			res.end('%PDF-1.4 report');
		});
	});
	afterEach(async () => {
		network?.restore();
		network = undefined;
		await host.close();
	});

	/** The DNS answers each name by `answers` (every lookup alike); the public addresses lead to the file host. */
	const networkWith = (answers: Record<string, Answer | ((asked: number) => Answer)>) => {
		network = fakeNetwork({ [PUBLIC_V4]: host.port, [PUBLIC_V6]: host.port }, (name, asked) => {
			const found = answers[name];
			if (found === undefined) return Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
			return typeof found === 'function' ? found(asked) : found;
		});
		return network;
	};

	describe('a name that resolves to a public address', () => {
		it('is downloaded from the address checked, with the name as Host and TLS server name, without the key', async () => {
			const net = networkWith({ [NAME]: [PUBLIC_V4] });
			const { value, error } = await download(`https://${NAME}:${host.port}/report.pdf?sig=1`);
			expect(error).toBeUndefined();
			expect(value?.data.toString()).toBe('%PDF-1.4 report');
			expect(value?.fileName).toBe('report.pdf');
			expect(net.lookups).toEqual([NAME]);
			expect(net.connections).toEqual([`${PUBLIC_V4}:${host.port}`]);
			expect(host.seen).toEqual([
				{ servername: NAME, host: `${NAME}:${host.port}`, path: '/report.pdf?sig=1' },
			]);
		});

		it('follows a redirect to another name, looked up and pinned the same way', async () => {
			const net = networkWith({ [NAME]: [PUBLIC_V4], [SECOND]: [PUBLIC_V6] });
			const { value, error } = await download(`https://${NAME}:${host.port}/moved`);
			expect(error).toBeUndefined();
			expect(value?.data.toString()).toBe('%PDF-1.4 report');
			expect(net.lookups).toEqual([NAME, SECOND]);
			expect(net.connections).toEqual([`${PUBLIC_V4}:${host.port}`, `${PUBLIC_V6}:${host.port}`]);
			expect(host.seen.map((seen) => [seen.servername, seen.host])).toEqual([
				[NAME, `${NAME}:${host.port}`],
				[SECOND, `${SECOND}:${host.port}`],
			]);
		});

		it('goes on to the next address checked when one cannot be reached', async () => {
			const net = networkWith({ [NAME]: ['2606:4700::1111', PUBLIC_V4] });
			const { value, error } = await download(`https://${NAME}:${host.port}/report.pdf`);
			expect(error).toBeUndefined();
			expect(value?.data.toString()).toBe('%PDF-1.4 report');
			expect(net.connections).toEqual([
				`2606:4700::1111:${host.port}`,
				`${PUBLIC_V4}:${host.port}`,
			]);
		});
	});

	describe("the host's certificate", () => {
		it('must be for the name: a host whose certificate is for another name is not read', async () => {
			networkWith({ 'files.example.net': [PUBLIC_V4] });
			const { value, error } = await download(`https://files.example.net:${host.port}/report.pdf`);
			expect(value).toBeUndefined();
			expect(JSON.stringify(error)).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|altnames/);
			expect(host.seen).toEqual([]);
		});
	});

	describe('DNS rebinding: public when checked, 127.0.0.1 when connected', () => {
		it('never connects to 127.0.0.1: the name is not looked up a second time', async () => {
			const inside = await countingListener();
			try {
				const net = networkWith({ [NAME]: (asked) => (asked === 1 ? [PUBLIC_V4] : ['127.0.0.1']) });
				// The inside port is the link's: a second lookup would land on it.
				const { value } = await download(`https://${NAME}:${inside.port}/report.pdf`);
				expect(net.lookups).toEqual([NAME]);
				expect(net.connections).toEqual([`${PUBLIC_V4}:${inside.port}`]);
				expect(inside.connections()).toBe(0);
				expect(value?.data.toString()).toBe('%PDF-1.4 report');
			} finally {
				await inside.close();
			}
		});
	});

	describe('refused before anything is connected', () => {
		it.each([
			['a shared (carrier-grade NAT) address', ['100.64.0.1'], '100.64.0.0/10'],
			['the unspecified address', ['::'], '::/128'],
			['a NAT64 address', ['64:ff9b::a00:1'], '64:ff9b::/96'],
			['a public and a 6to4 relay address', [PUBLIC_V4, '192.88.99.1'], '192.88.99.0/24'],
			["an address n8n's own list refuses", ['127.0.0.1'], "n8n's egress rules"],
		])('a name that resolves to %s', async (_what, addresses, named) => {
			const net = networkWith({ [NAME]: addresses });
			const { error } = await download(`https://${NAME}:${host.port}/report.pdf`);
			expect(error?.message).toMatch(/^The file link leads where a download may not go: /);
			expect(error?.message).toContain(named);
			expect(net.connections).toEqual([]);
		});

		it.each([
			['fails', Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' })],
			['finds no address', []],
		])('a name whose lookup %s', async (_what, answer) => {
			const net = networkWith({ [NAME]: answer as Answer });
			const { error } = await download(`https://${NAME}:${host.port}/report.pdf`);
			expect(error?.message).toMatch(
				new RegExp(
					`^The file link leads where a download may not go: ${NAME} could not be looked up`,
				),
			);
			expect(net.lookups).toEqual([NAME]);
			expect(net.connections).toEqual([]);
		});

		it('a redirect to a name that resolves to a special-purpose address', async () => {
			const net = networkWith({ [NAME]: [PUBLIC_V4], [SECOND]: ['100.100.100.200'] });
			const { error } = await download(`https://${NAME}:${host.port}/moved`);
			expect(error?.message).toMatch(/^The file link redirects where a download may not go: /);
			expect(error?.message).toContain('100.64.0.0/10');
			expect(net.connections).toEqual([`${PUBLIC_V4}:${host.port}`]);
		});
	});

	describe('an n8n that gives nodes no lookup (1.x)', () => {
		it('refuses a host name: where it leads cannot be checked', async () => {
			const net = networkWith({ [NAME]: [PUBLIC_V4] });
			const { error } = await download(`https://${NAME}:${host.port}/report.pdf`, {
				olderN8n: true,
			});
			expect(error?.message).toMatch(/^The file link leads where a download may not go: /);
			expect(error?.message).toContain('update n8n');
			expect(net.lookups).toEqual([]);
			expect(net.connections).toEqual([]);
		});

		it('downloads a link written with a public IP address, checked as written', async () => {
			const net = networkWith({});
			const { value, error } = await download(`https://${PUBLIC_V4}:${host.port}/report.pdf`, {
				olderN8n: true,
			});
			expect(error).toBeUndefined();
			expect(value?.data.toString()).toBe('%PDF-1.4 report');
			expect(net.connections).toEqual([`${PUBLIC_V4}:${host.port}`]);
		});
	});
}
