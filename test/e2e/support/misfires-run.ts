/**
 * The run the misfires scenarios share (moments-misfires.ts, misfires-cases.ts):
 * one n8n under one scheduler, against a sandbox of its own, with eight trigger
 * workflows polling every 15 seconds, and what each reported, read from its
 * executions. A to F are node version 1 (one item per change, every setting in
 * Options); G and H are version 2 (one item per moment, the moments' settings
 * beside the events). G routes its items with n8n's Switch on `event`; H is
 * published only once the business it watches is under way.
 */
import { SANDBOX_KEYS } from '../../../sandbox/index';
import type { N8nWorkflow } from '../../../scripts/n8n-instance';
import { waitFor } from '../../../scripts/processes';
import { SANDBOX_CREDENTIAL, sandboxCredential } from '../../../scripts/workflows';
import { chain, NODE_TYPES } from '../workflows/build';
import { DURABLE_SCHEDULER, DurableN8n, every15Seconds, TRIGGER_NODE } from './durable';
import { PollWatch } from './polls';

export type Json = Record<string, unknown>;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const iso = (ms: number) => new Date(ms).toISOString();

/** F and D poll with keys of their own, so their requests can be told apart in the sandbox's log. */
const KEYS = {
	F: { id: 'IbSandboxAcmeStaff', name: 'Sandbox (Acme staff key)', apiKey: SANDBOX_KEYS.acmeStaff },
	D: {
		id: 'IbSandboxAcmeOwner2',
		name: 'Sandbox (Acme second key)',
		apiKey: SANDBOX_KEYS.acmeOwner2,
	},
} as const;

interface Definition {
	version: 1 | 2;
	events: readonly string[];
	/** Version 1: the Options collection. Version 2: the moments' settings, beside the events. */
	settings: Json;
	/** Published by a scenario once the business it watches is under way, not at the start. */
	later?: true;
}

/** The workflows, by letter: their node version, events and settings. */
const WORKFLOWS = {
	A: {
		version: 1,
		events: [
			'inspection.created',
			'inspection.updated',
			'contact.updated',
			'inspection.rescheduled',
			'inspection.paid',
			'inspection.agreements_signed',
			'inspection.paid_and_signed',
			'inspection.paid_signed_published',
			'inspection.starting',
			'inspection.ended',
			'contact.new_role',
		],
		settings: {},
	},
	B: {
		version: 1,
		events: ['inspection.updated', 'inspection.paid', 'inspection.paid_and_signed'],
		settings: { onlyOnce: false },
	},
	C: { version: 1, events: ['inspection.starting'], settings: {} },
	D: { version: 1, events: ['inspection.ended'], settings: {} },
	E: {
		version: 1,
		events: ['inspection.starting', 'inspection.ended'],
		settings: { momentStatuses: ['waiting', 'confirmed'] },
	},
	F: { version: 1, events: ['inspection.starting', 'inspection.rescheduled'], settings: {} },
	// The node's defaults: Only Trigger Once on, reminders 24 hours ahead, confirmed only.
	G: {
		version: 2,
		events: [
			'inspection.created',
			'inspection.updated',
			'inspection.confirmed',
			'inspection.published',
			'inspection.paid',
			'inspection.paid_and_signed',
			'inspection.paid_signed_published',
			'inspection.fees_changed',
			'inspection.starting',
			'contact.updated',
			'contact.tag_added',
			'contact.tag_removed',
		],
		settings: {},
	},
	H: {
		version: 2,
		events: [
			'inspection.created',
			'inspection.updated',
			'inspection.published',
			'inspection.paid',
			'inspection.agreements_signed',
			'inspection.paid_and_signed',
			'inspection.paid_signed_published',
			'inspection.starting',
			'inspection.ended',
		],
		settings: {},
		later: true,
	},
} satisfies Record<string, Definition>;
export type Letter = keyof typeof WORKFLOWS;
const LETTERS = Object.keys(WORKFLOWS) as Letter[];
const idOf = (letter: Letter) => `IbMisfire${letter}`;

/** G's Switch: a branch (a No Operation node of that name) for each of these events. */
export const BRANCHES = {
	Created: 'inspection.created',
	Confirmed: 'inspection.confirmed',
	Paid: 'inspection.paid',
	'Paid and Signed': 'inspection.paid_and_signed',
} as const;
export type Branch = keyof typeof BRANCHES;

/** The Switch node (rules mode) that sends each item to the branch of its `event`. */
function switchOnEvent(): N8nWorkflow['nodes'][number] {
	return {
		name: 'Switch on event',
		type: 'n8n-nodes-base.switch',
		typeVersion: 3.2,
		parameters: {
			mode: 'rules',
			rules: {
				values: Object.entries(BRANCHES).map(([branch, event]) => ({
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{
								leftValue: '={{ $json.event }}',
								rightValue: event,
								operator: { type: 'string', operation: 'equals' },
							},
						],
						combinator: 'and',
					},
					renameOutput: true,
					outputKey: branch,
				})),
			},
			options: {},
		},
	};
}

function triggerWorkflow(letter: Letter): N8nWorkflow {
	const { version, events, settings } = WORKFLOWS[letter] as Definition;
	const parameters =
		version === 1
			? { pollTimes: every15Seconds(), events: [...events], options: settings }
			: { pollTimes: every15Seconds(), events: [...events], ...settings, options: {} };
	const trigger = {
		name: TRIGGER_NODE,
		type: NODE_TYPES.poll,
		typeVersion: version,
		parameters,
		credentials: {
			inspectionBusinessApi:
				letter === 'F' || letter === 'D'
					? { id: KEYS[letter].id, name: KEYS[letter].name }
					: SANDBOX_CREDENTIAL,
		},
	};
	const workflow = chain(idOf(letter), `Misfires ${letter}`, [trigger]);
	if (letter !== 'G') return workflow;
	const branches = Object.keys(BRANCHES).map((name, index) => ({
		id: `${idOf(letter)}-branch-${index}`,
		name,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [440, index * 160],
		parameters: {},
	}));
	return {
		...workflow,
		nodes: [
			...workflow.nodes,
			{ id: `${idOf(letter)}-switch`, position: [220, 0], ...switchOnEvent() },
			...branches,
		],
		connections: {
			[TRIGGER_NODE]: { main: [[{ node: 'Switch on event', type: 'main', index: 0 }]] },
			'Switch on event': {
				main: Object.keys(BRANCHES).map((name) => [{ node: name, type: 'main', index: 0 }]),
			},
		},
	};
}

type RunData = Record<string, Array<{ data?: { main: Array<Array<{ json: Json }> | null> } }>>;
const recordOf = (item: Json) => (item.record ?? {}) as Json;
const idIn = (item: Json) => String(recordOf(item).id);

/** What each workflow reported so far, read from its executions; G's branches too. */
export class Reports {
	private readonly seen = new Set<string>();
	readonly items = Object.fromEntries(LETTERS.map((letter) => [letter, []])) as unknown as Record<
		Letter,
		Json[]
	>;
	readonly branches = Object.fromEntries(
		Object.keys(BRANCHES).map((branch) => [branch, []]),
	) as unknown as Record<Branch, Json[]>;

	/** The workflows made so far (H only once a scenario publishes it). */
	readonly made = new Set(LETTERS.filter((letter) => !(WORKFLOWS[letter] as Definition).later));
	private reading?: Promise<void>;

	constructor(private readonly n8n: DurableN8n) {}

	/** Reads the executions that finished since; callers that come while a read runs share it. */
	async collect(): Promise<void> {
		this.reading ??= this.read().finally(() => (this.reading = undefined));
		await this.reading;
	}

	private async read(): Promise<void> {
		for (const letter of this.made) {
			for (const execution of (await this.n8n.rest.executions(idOf(letter))).reverse()) {
				if (this.seen.has(execution.id) || !['success', 'error'].includes(execution.status))
					continue;
				this.seen.add(execution.id);
				const data = await this.n8n.rest.executionData<{ resultData: { runData: RunData } }>(
					execution.id,
				);
				const output = (node: string) =>
					(data.resultData.runData[node] ?? []).flatMap((run) =>
						(run.data?.main[0] ?? []).map((item) => item.json),
					);
				this.items[letter].push(...output(TRIGGER_NODE));
				if (letter === 'G')
					for (const branch of Object.keys(BRANCHES) as Branch[])
						this.branches[branch].push(...output(branch));
			}
		}
	}

	/** The items of `letter` for `event` and record `id`. */
	of(letter: Letter, event: string, id: string): Json[] {
		return this.items[letter].filter((item) => item.event === event && idIn(item) === id);
	}

	/** Every item of `letter` about record `id`. */
	about(letter: Letter, id: string): Json[] {
		return this.items[letter].filter((item) => idIn(item) === id);
	}

	/**
	 * Waits until `letters` each reported record `id` in a version `shows`: they
	 * polled after the change that made it, so the next change is a change of its own.
	 */
	async sawEach(letters: Letter[], id: string, shows: (record: Json) => boolean): Promise<void> {
		await waitFor(
			`workflows ${letters.join(', ')} to see ${id} changed`,
			async () => {
				await this.collect();
				const saw = (letter: Letter) =>
					this.about(letter, id).some((item) => shows(recordOf(item)));
				return letters.every(saw) || undefined;
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 1000 },
		);
	}

	/** Waits until `letters` each reported the version a control route answered with. */
	async sawVersion(letters: Letter[], version: Json): Promise<void> {
		await this.sawEach(
			letters,
			String(version.id),
			(record) => record.updated_at === version.updated_at,
		);
	}

	async until(letter: Letter, event: string, id: string, timeoutMs = 3 * MINUTE): Promise<Json[]> {
		return await waitFor(
			`workflow ${letter} to report ${event} for ${id}`,
			async () => {
				await this.collect();
				const found = this.of(letter, event, id);
				return found.length > 0 ? found : undefined;
			},
			{ timeoutMs, intervalMs: 1000 },
		);
	}
}

export interface Misfires {
	n8n: DurableN8n;
	reports: Reports;
	scheduler: Scheduler;
}

export type Scheduler = 'poller' | 'durable';

/** Edits the trigger's parameters as a user in the editor would, and publishes the new version. */
export async function editTrigger({ n8n }: Misfires, letter: Letter, changed: Json): Promise<void> {
	const workflow = await n8n.rest.rest<Json & { nodes: Json[]; versionId: string }>(
		'GET',
		`/rest/workflows/${idOf(letter)}`,
	);
	const nodes = workflow.nodes.map((node) =>
		node.name === TRIGGER_NODE
			? { ...node, parameters: { ...(node.parameters as Json), ...changed } }
			: node,
	);
	await n8n.rest.rest('PATCH', `/rest/workflows/${idOf(letter)}`, {
		nodes,
		connections: workflow.connections,
		versionId: workflow.versionId,
	});
	await n8n.rest.publish(idOf(letter));
}

export const unpublish = async ({ n8n }: Misfires, letter: Letter) =>
	await n8n.rest.unpublish(idOf(letter));
export const publish = async ({ n8n }: Misfires, letter: Letter) =>
	await n8n.rest.publish(idOf(letter));

/** Watches the polls of D or F, which poll with keys of their own (the sandbox's log tells them apart). */
export const watchPolls = async (n8n: DurableN8n, letter: 'D' | 'F') =>
	await PollWatch.start(n8n.control, n8n.rest, idOf(letter), KEYS[letter].apiKey);

/**
 * Waits until `letters` (each selects Created) are past their baselines: a
 * baseline reports nothing, so the first inspection created after it is the
 * first item. A new one is booked every 20 seconds until each has reported one.
 */
async function pastBaselines({ n8n, reports }: Misfires, letters: Letter[]): Promise<void> {
	const sentinels: string[] = [];
	let touched = 0;
	await waitFor(
		`the baselines of ${letters.join(', ')} to end`,
		async () => {
			if (Date.now() - touched > 20_000) {
				sentinels.push(String((await n8n.control.createInspection({ org: 'acme' })).id));
				touched = Date.now();
			}
			await reports.collect();
			const past = (letter: Letter) =>
				sentinels.some((id) => reports.of(letter, 'inspection.created', id).length > 0);
			return letters.every(past) || undefined;
		},
		{ timeoutMs: 6 * MINUTE, intervalMs: 2000 },
	);
}

/** A fresh n8n under `scheduler`, its workflows published and past their baselines (all but H). */
export async function startMisfires(scheduler: Scheduler): Promise<Misfires> {
	const n8n = await DurableN8n.prepare(
		`misfires-${scheduler}`,
		() => LETTERS.filter((letter) => !(WORKFLOWS[letter] as Definition).later).map(triggerWorkflow),
		'demo',
		(url) => Object.values(KEYS).map((key) => sandboxCredential(url, key)),
	);
	// n8n 2.41's own defaults: no durable scheduler, the publication service on.
	const off = {
		...Object.fromEntries(Object.keys(DURABLE_SCHEDULER).map((name) => [name, 'false'])),
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	};
	// New York's zone: a time without an offset read in the server's zone would be 5 hours off.
	await n8n.start({ TZ: 'America/New_York', ...(scheduler === 'poller' ? off : {}) });
	const run = { n8n, reports: new Reports(n8n), scheduler };
	await pastBaselines(run, ['A', 'G']);
	return run;
}

const publishedLater = new WeakSet<Misfires>();

/**
 * Publishes H, a workflow made now, as a user does once the business is under
 * way, and waits until it is past its baseline. Once per run.
 */
export async function publishLater(run: Misfires): Promise<void> {
	if (publishedLater.has(run)) return;
	publishedLater.add(run);
	await run.n8n.rest.rest('POST', '/rest/workflows', triggerWorkflow('H'));
	run.reports.made.add('H');
	await publish(run, 'H');
	await pastBaselines(run, ['H']);
}

/** An inspection booked `status` at `start` for `hours`; its id. */
export const bookedAt = async (
	n8n: DurableN8n,
	start: number,
	hours: number,
	status = 'confirmed',
) =>
	String(
		(
			await n8n.control.createInspection({
				org: 'acme',
				status,
				scheduled_for: iso(start),
				duration_hours: hours,
			})
		).id,
	);

/**
 * A change the same workflow reports after everything done before it: an
 * inspection booked now, reported Created by `letter`. A moment not reported
 * by then was judged and not sent (the walks read changes in order).
 */
export async function companion({ n8n, reports }: Misfires, letter: Letter): Promise<void> {
	const id = String((await n8n.control.createInspection({ org: 'acme' })).id);
	await reports.until(letter, 'inspection.created', id);
}
