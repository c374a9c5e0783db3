/**
 * What `npm run bench:queue-webhook` measures in one scenario, and how it is summed up: the
 * answers the webhook processes gave, the executions n8n ran, the API requests of the re-fetch.
 * Pure functions, so the arithmetic is tested on its own (test/bench/queue-webhook-report.test.ts).
 */

/** One POST to a webhook process and its answer. */
export interface Answer {
	deliveryId: string;
	kind: 'first' | 'replay-now' | 'replay-later';
	/** Which webhook process took it (1-based). */
	process: number;
	status: number;
	body: string;
	/** From sending the request to the end of the answer's body. */
	ms: number;
}

/** One execution of the scenario's workflow, as n8n stored it. */
export interface Execution {
	id: string;
	status: string;
	/** The worker whose log says it started the execution, or undefined when none did. */
	worker?: string;
	deliveryId?: string;
	recordId?: string;
	/** The re-fetched record's id; undefined when the item had no record. */
	refetchedId?: string;
	/** Whether the item went past the trigger (and the guard after it, if any) to the next step. */
	reachedNextStep: boolean;
	error?: string;
}

/** One request the sandbox logged for the re-fetch. */
export interface ApiRequest {
	status: number;
	ids: number;
}

/**
 * The delivery an execution ran for: the trigger's item names it, and a failed re-fetch names it in
 * its error ("Could not re-fetch … of delivery <id> …"). Undefined for an execution n8n recorded
 * for a request that failed before the node answered.
 */
export function deliveryOf(execution: Execution): string | undefined {
	return (
		execution.deliveryId ??
		/ of delivery ([0-9a-f-]{36})\b/i.exec(execution.error ?? '')?.[1] ??
		undefined
	);
}

export interface ScenarioSummary {
	firstDeliveries: number;
	/** First deliveries answered 200 `{"received":true}`. */
	acknowledged: number;
	ackMs: { median: number; p99: number; max: number };
	replaysNow: { sent: number; ignored: number };
	replaysLater: { sent: number; ignored: number };
	executions: number;
	/** How many delivery ids started 0, 1, 2, … executions. */
	executionsPerDelivery: Record<number, number>;
	/** Replays whose delivery id started a second (or later) execution. */
	replaysThatRan: number;
	/** How many of the delivery ids reached the workflow's next step 0, 1, 2, … times. */
	nextStepPerDelivery: Record<number, number>;
	/** Repeats of a delivery id that reached the next step again (a second or later time). */
	repeatsAtNextStep: number;
	/** Delivery ids acknowledged with 200 {"received":true} that never reached the next step. */
	acceptedNeverAtNextStep: number;
	onWorkers: number;
	succeeded: number;
	/** Executions that name no delivery: n8n recorded them for requests that failed around the node. */
	withoutDelivery: number;
	/** Delivery ids answered 200 `{"received":true}` at least once that started no execution at all. */
	acceptedWithoutExecution: number;
	/** Delivery ids whose executions all failed, yet a later replay was ignored as already received. */
	failedThenIgnoredLater: number;
	refetched: number;
	apiRequests: number;
	idsPerRequest: number;
	throttled: number;
}

export const ACCEPTED = JSON.stringify({ received: true });

/** Whether the answer said that the delivery was taken (200 `{"received":true}`, nothing ignored). */
export const isAccepted = (answer: Answer) =>
	answer.status === 200 && answer.body.trim() === ACCEPTED;

/** Whether the answer said that the delivery id was already received. */
export function isIgnoredRepeat(answer: Answer): boolean {
	if (answer.status !== 200) return false;
	try {
		const { ignored } = JSON.parse(answer.body) as { ignored?: unknown };
		return ignored === `delivery ${answer.deliveryId} was already received`;
	} catch {
		return false;
	}
}

/** The nearest-rank percentile `p` (0–100) of `values`; 0 for none. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.ceil((p / 100) * sorted.length);
	return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** How many of `deliveryIds` started n executions, for each n that occurs. */
export function executionsPerDelivery(
	deliveryIds: string[],
	executions: Execution[],
): Record<number, number> {
	const counts = new Map<string, number>(deliveryIds.map((id) => [id, 0]));
	for (const execution of executions) {
		const deliveryId = deliveryOf(execution);
		if (deliveryId !== undefined) counts.set(deliveryId, (counts.get(deliveryId) ?? 0) + 1);
	}
	const histogram: Record<number, number> = {};
	for (const count of counts.values()) histogram[count] = (histogram[count] ?? 0) + 1;
	return histogram;
}

function replays(answers: Answer[], kind: Answer['kind']) {
	const sent = answers.filter((answer) => answer.kind === kind);
	return { sent: sent.length, ignored: sent.filter(isIgnoredRepeat).length };
}

function deliveryOutcomes(deliveryIds: string[], answers: Answer[], executions: Execution[]) {
	const runs = (id: string) => executions.filter((execution) => deliveryOf(execution) === id);
	const answered = (id: string) => answers.filter((answer) => answer.deliveryId === id);
	return {
		acceptedWithoutExecution: deliveryIds.filter(
			(id) => answered(id).some(isAccepted) && runs(id).length === 0,
		).length,
		failedThenIgnoredLater: deliveryIds.filter((id) => {
			const ran = runs(id);
			return (
				ran.length > 0 &&
				ran.every((execution) => execution.status !== 'success') &&
				answered(id).some((answer) => answer.kind === 'replay-later' && isIgnoredRepeat(answer))
			);
		}).length,
	};
}

/** In a histogram of runs per delivery id, the runs beyond each id's first. */
const repeatsBeyondFirst = (histogram: Record<number, number>) =>
	Object.entries(histogram).reduce(
		(sum, [count, deliveries]) => sum + Math.max(0, Number(count) - 1) * deliveries,
		0,
	);

export function summarize(
	answers: Answer[],
	executions: Execution[],
	requests: ApiRequest[],
): ScenarioSummary {
	const first = answers.filter((answer) => answer.kind === 'first');
	const deliveryIds = first.map((answer) => answer.deliveryId);
	const ackMs = first.map((answer) => answer.ms);
	const perDelivery = executionsPerDelivery(deliveryIds, executions);
	const atNextStep = executions.filter((execution) => execution.reachedNextStep);
	const nextStepPerDelivery = executionsPerDelivery(deliveryIds, atNextStep);
	const ids = requests.reduce((sum, request) => sum + request.ids, 0);
	return {
		firstDeliveries: first.length,
		acknowledged: first.filter(isAccepted).length,
		ackMs: {
			median: percentile(ackMs, 50),
			p99: percentile(ackMs, 99),
			max: Math.max(0, ...ackMs),
		},
		replaysNow: replays(answers, 'replay-now'),
		replaysLater: replays(answers, 'replay-later'),
		executions: executions.length,
		executionsPerDelivery: perDelivery,
		replaysThatRan: repeatsBeyondFirst(perDelivery),
		nextStepPerDelivery,
		repeatsAtNextStep: repeatsBeyondFirst(nextStepPerDelivery),
		acceptedNeverAtNextStep: deliveryIds.filter(
			(id) =>
				answers.some((answer) => answer.deliveryId === id && isAccepted(answer)) &&
				!atNextStep.some((execution) => deliveryOf(execution) === id),
		).length,
		onWorkers: executions.filter((execution) => execution.worker !== undefined).length,
		succeeded: executions.filter((execution) => execution.status === 'success').length,
		withoutDelivery: executions.filter((execution) => deliveryOf(execution) === undefined).length,
		...deliveryOutcomes(deliveryIds, answers, executions),
		refetched: executions.filter(
			(execution) =>
				execution.recordId !== undefined && execution.refetchedId === execution.recordId,
		).length,
		apiRequests: requests.length,
		idsPerRequest: requests.length ? ids / requests.length : 0,
		throttled: requests.filter((request) => request.status === 429).length,
	};
}

/** `{1: 58, 2: 2}` as "58×1, 2×2". */
export const histogramText = (histogram: Record<number, number>) =>
	Object.entries(histogram)
		.sort(([a], [b]) => Number(a) - Number(b))
		.map(([count, deliveries]) => `${deliveries}×${count}`)
		.join(', ');
