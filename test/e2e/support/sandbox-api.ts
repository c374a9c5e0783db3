/**
 * Direct reads of the sandbox's v1 API, for the tests' expectations. They use
 * Acme's second key owner, so they never share a rate budget with the workflows.
 */
import { SANDBOX_KEYS } from '../../../sandbox/index';

type Query = Record<string, string | number | boolean>;

export interface ListPage<T> {
	data: T[];
	next_cursor: string | null;
	total: number;
}

export class SandboxApi {
	constructor(
		readonly baseUrl: string,
		private readonly key: string = SANDBOX_KEYS.acmeStaff,
	) {}

	async get<T>(path: string, query: Query = {}): Promise<T> {
		const url = new URL(path, this.baseUrl);
		for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
		const response = await this.fetchWithRetry(url);
		const text = await response.text();
		if (!response.ok)
			throw new Error(`GET ${url.pathname}${url.search} answered ${response.status}: ${text}`);
		return JSON.parse(text) as T;
	}

	/**
	 * A GET may be repeated: a pooled connection that drops before the answer
	 * (as one can under load) is retried twice, after a short pause.
	 */
	private async fetchWithRetry(url: URL): Promise<Response> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await fetch(url, {
					headers: { authorization: `Bearer ${this.key}` },
					signal: AbortSignal.timeout(30_000),
				});
			} catch (error) {
				if (attempt >= 3) throw error;
				await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
			}
		}
	}

	/** Every record of a list, page by page (limit 200). */
	async all<T>(path: string, query: Query = {}): Promise<T[]> {
		const records: T[] = [];
		let cursor: string | null = null;
		do {
			const page: ListPage<T> = await this.get<ListPage<T>>(path, {
				...query,
				limit: 200,
				...(cursor ? { cursor } : {}),
			});
			records.push(...page.data);
			cursor = page.next_cursor;
		} while (cursor);
		return records;
	}
}
