/**
 * Shared helpers of the sandbox tests: one in-process sandbox per test file
 * (127.0.0.1, port 0), a tiny v1 client per key, and a page walker.
 */
import {
	SANDBOX_KEYS,
	startSandbox,
	type RunningSandbox,
	type SandboxOptions,
} from '../../sandbox';
import { SandboxControl } from '../../sandbox/client';

export { SANDBOX_KEYS };
export type KeyName = keyof typeof SANDBOX_KEYS;
/** A JSON object as JSON.parse gives it: tests read answers field by field. */
export type Json = Record<string, ReturnType<typeof JSON.parse>>;

export interface Answer {
	status: number;
	body: Json;
	headers: Headers;
}

export interface Sandbox {
	readonly baseUrl: string;
	readonly control: SandboxControl;
	api(key?: KeyName | null): V1;
}

export class V1 {
	constructor(
		private readonly baseUrl: string,
		private readonly key: string | null,
	) {}

	private headers(extra: Record<string, string> = {}): Record<string, string> {
		return this.key === null ? extra : { Authorization: `Bearer ${this.key}`, ...extra };
	}

	async request(
		method: string,
		path: string,
		init: { json?: unknown; form?: FormData; raw?: string; contentType?: string } = {},
	): Promise<Answer> {
		const extra: Record<string, string> = {};
		let body: FormData | string | undefined;
		if (init.json !== undefined) {
			extra['Content-Type'] = 'application/json';
			body = JSON.stringify(init.json);
		} else if (init.form) {
			body = init.form;
		} else if (init.raw !== undefined) {
			extra['Content-Type'] = init.contentType ?? 'text/plain';
			body = init.raw;
		}
		const res = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: this.headers(extra),
			body,
		});
		const text = await res.text();
		return {
			status: res.status,
			body: text ? (JSON.parse(text) as Json) : {},
			headers: res.headers,
		};
	}

	get = (path: string) => this.request('GET', path);
	post = (path: string, json: unknown) => this.request('POST', path, { json });
	patch = (path: string, json: unknown) => this.request('PATCH', path, { json });
	delete = (path: string) => this.request('DELETE', path);
	upload = (path: string, form: FormData) => this.request('POST', path, { form });

	/** Every page of a list: the records, in order, and the page sizes. */
	async walk(
		path: string,
		limit = 200,
		from: string | null = null,
	): Promise<{ records: Json[]; sizes: number[]; totals: number[] }> {
		const records: Json[] = [];
		const sizes: number[] = [];
		const totals: number[] = [];
		let cursor = from;
		const sep = path.includes('?') ? '&' : '?';
		for (let page = 0; page < 10_000; page++) {
			const res: Answer = await this.get(
				`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			if (res.status !== 200)
				throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
			records.push(...res.body.data);
			sizes.push(res.body.data.length);
			totals.push(res.body.total);
			cursor = res.body.next_cursor;
			if (cursor === null) return { records, sizes, totals };
		}
		throw new Error('walk did not end');
	}
}

/** Starts a sandbox for the calling test file (beforeAll) and stops it (afterAll). */
export function useSandbox(options: SandboxOptions = {}): Sandbox {
	let running: RunningSandbox | undefined;
	let control: SandboxControl | undefined;
	beforeAll(async () => {
		running = await startSandbox({ rateLimit: 100_000, ...options, port: 0, host: '127.0.0.1' });
		control = new SandboxControl(running.baseUrl);
	});
	afterAll(async () => await running?.stop());
	const baseUrl = () => {
		if (!running) throw new Error('the sandbox starts in beforeAll');
		return running.baseUrl;
	};
	return {
		get baseUrl() {
			return baseUrl();
		},
		get control() {
			if (!control) throw new Error('the sandbox starts in beforeAll');
			return control;
		},
		api: (key: KeyName | null = 'acmeOwner') =>
			new V1(baseUrl(), key === null ? null : SANDBOX_KEYS[key]),
	};
}

export const file = (
	data: Buffer | string,
	name: string,
	type: string,
	fields: Record<string, string> = {},
	field = 'file',
): FormData => {
	const form = new FormData();
	for (const [k, v] of Object.entries(fields)) form.append(k, v);
	form.append(field, new Blob([data], { type }), name);
	return form;
};

export const fields = (values: Record<string, string>): FormData => {
	const form = new FormData();
	for (const [k, v] of Object.entries(values)) form.append(k, v);
	return form;
};

/** An error answer in the errorBodyShapes shape naming `param`. */
export function expectError(res: Answer, status: number, param: string | null = null): void {
	expect({ status: res.status, param: res.body.error?.param }).toEqual({ status, param });
	expect(typeof res.body.error.code).toBe('string');
	expect(typeof res.body.error.message).toBe('string');
}

export const ids = (records: Json[]) => records.map((r) => r.id as string);

/** Contact helpers shared by the contact-write tests: create (201 asserted), read back by id, tags by name. */
let contactSeq = 0;
export function contactHelpers(sandbox: Sandbox) {
	const api = () => sandbox.api();
	return {
		newContact: async (extra: Json = {}) => {
			const res = await api().post('/v1/contacts', {
				first_name: 'Test',
				email: `test${++contactSeq}@example.com`,
				...extra,
			});
			expect(res.status).toBe(201);
			return res.body;
		},
		getContact: async (id: string) => (await api().get(`/v1/contacts?ids=${id}`)).body.data[0],
		tagsByName: async () =>
			new Map<string, Json>((await api().walk('/v1/tags')).records.map((t) => [t.name, t])),
	};
}
