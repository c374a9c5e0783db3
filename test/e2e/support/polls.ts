/**
 * Waiting for a polling trigger's next poll instead of a fixed time. The sandbox's request
 * log shows each poll as a group of requests with the workflow credential's key (the tests
 * read with another key): a gap of POLL_GAP_MS or more between two requests starts a new
 * poll. Once the second poll that began after a moment has begun, the first has ended; its
 * execution, if it started one, is then waited for until it has finished.
 */
import type { SandboxControl } from '../../../sandbox/client';
import { SANDBOX_KEYS } from '../../../sandbox/index';
import type { LogEntry } from '../../../sandbox/requestlog';
import type { N8nRestClient } from '../../../scripts/n8n-rest';
import { waitFor } from '../../../scripts/processes';

/** Less than the time between two polls (15 s in the e2e workflows), more than one poll's spread. */
const POLL_GAP_MS = 5000;
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/** The start times (sandbox clock) of the polls in `entries`, one per group of requests. */
export function pollStarts(entries: LogEntry[], before?: LogEntry): number[] {
	const starts: number[] = [];
	let last = before ? Date.parse(before.time) : -Infinity;
	for (const entry of entries) {
		const at = Date.parse(entry.time);
		if (at - last >= POLL_GAP_MS) starts.push(at);
		last = at;
	}
	return starts;
}

export class PollWatch {
	private constructor(
		private readonly control: SandboxControl,
		private readonly rest: N8nRestClient,
		private readonly workflowId: string,
		private readonly key: string,
		/** The paths the trigger reads (another trigger with the same key reads other lists). */
		private readonly pathPrefix: string,
		/** The trigger's requests logged before the watch began; the last of them. */
		private readonly seen: number,
		private readonly before: LogEntry | undefined,
	) {}

	/** Begins now: a poll running at this moment does not count. */
	static async start(
		control: SandboxControl,
		rest: N8nRestClient,
		workflowId: string,
		key: string = SANDBOX_KEYS.acmeOwner,
		pathPrefix = '/v1/',
	): Promise<PollWatch> {
		const mine = await PollWatch.requests(control, key, pathPrefix);
		return new PollWatch(control, rest, workflowId, key, pathPrefix, mine.length, mine.at(-1));
	}

	private static async requests(
		control: SandboxControl,
		key: string,
		pathPrefix: string,
	): Promise<LogEntry[]> {
		return (await control.requests({ pathPrefix })).data.filter((entry) => entry.key === key);
	}

	/** The trigger's requests since the watch began, and the polls they make (their start times). */
	async since(): Promise<{ requests: LogEntry[]; polls: number[] }> {
		const requests = (await PollWatch.requests(this.control, this.key, this.pathPrefix)).slice(
			this.seen,
		);
		return { requests, polls: pollStarts(requests, this.before) };
	}

	/** Waits until `count` whole polls began and ended after the watch began, and their executions finished. */
	async ended(count = 1, timeoutMs = 3 * 60_000): Promise<void> {
		await waitFor(
			`${count} poll(s) of ${this.workflowId} to end`,
			async () => (await this.since()).polls.length > count || undefined,
			{ timeoutMs, intervalMs: 1000 },
		);
		await waitFor(
			`the executions of ${this.workflowId} to finish`,
			async () =>
				(await this.rest.executions(this.workflowId)).every((execution) =>
					FINISHED.has(execution.status),
				) || undefined,
			{ timeoutMs, intervalMs: 1000 },
		);
	}
}
