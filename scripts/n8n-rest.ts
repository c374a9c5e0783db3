/** The few calls of n8n's internal REST API the demo and the e2e tests need, with a session cookie. */

import { waitFor } from './processes';

const REQUEST_TIMEOUT_MS = 30_000;
const NETWORK_ATTEMPTS = 3;

export interface OwnerAccount {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** The owner of every local instance (demo and e2e); documented in the README. */
export const LOCAL_OWNER: OwnerAccount = {
	email: 'demo@example.com',
	password: 'Demo-Passw0rd',
	firstName: 'Demo',
	lastName: 'Owner',
};

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	startedAt: string;
}

interface PublicationStatus {
	status: 'in_progress' | 'not_published' | 'published' | 'partial' | 'failed';
	triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
}

export class N8nRestClient {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	/** Creates the owner on a fresh instance (and logs in as it). */
	async setupOwner(owner: OwnerAccount): Promise<void> {
		await this.rest('POST', '/rest/owner/setup', owner);
	}

	async login(owner: OwnerAccount): Promise<void> {
		// Logging in again is harmless, so a dropped connection may be retried.
		await this.rest(
			'POST',
			'/rest/login',
			{ emailOrLdapLoginId: owner.email, password: owner.password },
			{ idempotent: true },
		);
	}

	/**
	 * Publishes (activates) a workflow's current version and waits until n8n reports its triggers
	 * activated: n8n 2.x applies a publication in the background (its publication outbox, polled
	 * every 15 s), so the REST answer comes before the triggers run.
	 */
	async publish(workflowId: string, timeoutMs = 2 * 60_000): Promise<void> {
		const { versionId } = await this.rest<{ versionId: string }>(
			'GET',
			`/rest/workflows/${workflowId}`,
		);
		await this.rest('POST', `/rest/workflows/${workflowId}/activate`, { versionId });
		await this.publicationSettled(workflowId, 'published', timeoutMs);
	}

	/** Unpublishes (deactivates) a workflow and waits until n8n has stopped its triggers. */
	async unpublish(workflowId: string, timeoutMs = 2 * 60_000): Promise<void> {
		await this.rest('POST', `/rest/workflows/${workflowId}/deactivate`, {});
		await this.publicationSettled(workflowId, 'not_published', timeoutMs);
	}

	private async publicationSettled(
		workflowId: string,
		wanted: 'published' | 'not_published',
		timeoutMs: number,
	): Promise<void> {
		let failure: string | undefined;
		await waitFor(
			`workflow ${workflowId} to be ${wanted.replace('_', ' ')}`,
			async () => {
				const state = await this.rest<PublicationStatus>(
					'GET',
					`/rest/workflows/${workflowId}/publication-status`,
				);
				if (state.status === 'failed' || state.status === 'partial') {
					const reasons = state.triggers.map((trigger) => trigger.errorMessage).filter(Boolean);
					failure = `n8n reports the publication ${state.status}: ${reasons.join('; ')}`;
				}
				return state.status === wanted || undefined;
			},
			{ timeoutMs, intervalMs: 1000, abort: () => failure },
		);
	}

	/** Executions of a workflow, newest first. */
	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await this.rest<{ results: ExecutionSummary[] }>(
			'GET',
			`/rest/executions?filter=${filter}&limit=100`,
		);
		return page.results;
	}

	/**
	 * Publishes (activates) a workflow's current version, as the editor's Publish button does; its
	 * triggers start at once. Faster than `n8n publish:workflow`, which boots n8n for each workflow.
	 */
	async publishWorkflow(id: string): Promise<void> {
		const { versionId } = await this.rest<{ versionId: string }>('GET', `/rest/workflows/${id}`);
		await this.rest('POST', `/rest/workflows/${id}/activate`, { versionId });
	}

	/** An execution's run data (n8n stores it "flatted"; see parseFlatted). */
	async executionData<T>(id: string): Promise<T> {
		const execution = await this.rest<{ data: string }>('GET', `/rest/executions/${id}`);
		return parseFlatted(execution.data) as T;
	}

	/** A /rest call; returns the body's `data`. */
	async rest<T = unknown>(
		method: 'GET' | 'POST' | 'PATCH',
		path: string,
		body?: unknown,
		options: { idempotent?: boolean } = {},
	): Promise<T> {
		return ((await this.request(method, path, body, options.idempotent)) as { data: T }).data;
	}

	/** Any other JSON the editor reads (e.g. /types/nodes.json), whole. */
	async get<T>(path: string): Promise<T> {
		return (await this.request('GET', path)) as T;
	}

	/**
	 * n8n closes an idle keep-alive connection after 5 s; a client slowed by load
	 * can send on it as it closes ("other side closed"). Requests that may be
	 * repeated (reads, a login, a credential test) are, on such a network failure.
	 */
	private async request(
		method: string,
		path: string,
		body?: unknown,
		idempotent = method === 'GET',
	): Promise<unknown> {
		const send = () =>
			fetch(`${this.baseUrl}${path}`, {
				method,
				headers: {
					'content-type': 'application/json',
					...(this.cookie ? { cookie: this.cookie } : {}),
				},
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
			});
		let response: Response;
		for (let attempt = 1; ; attempt++) {
			try {
				response = await send();
				break;
			} catch (error) {
				const timedOut = (error as Error).name === 'TimeoutError';
				if (!idempotent || timedOut || attempt >= NETWORK_ATTEMPTS) throw error;
				await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
			}
		}
		const auth = response.headers.getSetCookie().find((cookie) => cookie.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
		return JSON.parse(text) as unknown;
	}
}

/**
 * Decodes the "flatted" format n8n stores execution data in: a JSON array whose
 * first entry is the root, where every string inside an object or array is the
 * index of the entry holding the real value (a string, an object or an array).
 */
export function parseFlatted(text: string): unknown {
	const entries = JSON.parse(text) as unknown[];
	const revived = new Map<number, unknown>();
	const revive = (index: number): unknown => {
		if (revived.has(index)) return revived.get(index);
		const entry = entries[index];
		if (typeof entry !== 'object' || entry === null) {
			revived.set(index, entry);
			return entry;
		}
		const copy: Record<string, unknown> | unknown[] = Array.isArray(entry) ? [] : {};
		revived.set(index, copy);
		for (const [key, value] of Object.entries(entry)) {
			(copy as Record<string, unknown>)[key] =
				typeof value === 'string' ? revive(Number(value)) : value;
		}
		return copy;
	};
	return revive(0);
}
