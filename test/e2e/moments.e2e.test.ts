/**
 * The business moments in a real n8n under `n8n start` with the durable
 * scheduler (n8n 2.45's default; 2.41's four DURABLE_SCHEDULER settings), a
 * poll every 15 seconds, against a sandbox of its own whose control routes make
 * each moment happen: paid, agreements signed, paid and signed, paid signed
 * and published, inspector assigned and removed, fees changed, a contact's new
 * role, and the time-based starting and ended with the sandbox clock (the
 * trigger follows the API's clock through the Date header). Each is reported
 * once, soon after it happened, with its event and record; the time-based ones
 * after their time and not before, also when their time came while n8n was
 * stopped.
 * @long: waits minutes for n8n's polls (test/sequencer.js starts it early)
 */
import { waitFor } from '../../scripts/processes';
import { SANDBOX_CREDENTIAL } from '../../scripts/workflows';
import { DurableN8n, every15Seconds, TRIGGER_NODE } from './support/durable';
import { PollWatch } from './support/polls';
import { chain, NODE_TYPES } from './workflows/build';

type Json = Record<string, unknown>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WORKFLOW = 'IbMomentsPollE2e';
const EVENTS = [
	'inspection.created',
	'inspection.paid',
	'inspection.agreements_signed',
	'inspection.paid_and_signed',
	'inspection.paid_signed_published',
	'inspection.inspector_assigned',
	'inspection.inspector_removed',
	'inspection.fees_changed',
	'inspection.starting',
	'inspection.ended',
	'contact.new_role',
];
/** A poll takes a few seconds at most here; a moment must come with the first or second poll after it. */
const REPORTED_WITHIN_MS = 45_000;

let n8n: DurableN8n;
const reported: Array<Json & { seenAt: number }> = [];
const readExecutions = new Set<string>();

async function collect(): Promise<void> {
	for (const execution of (await n8n.rest.executions(WORKFLOW)).reverse()) {
		if (readExecutions.has(execution.id) || !['success', 'error'].includes(execution.status))
			continue;
		readExecutions.add(execution.id);
		const data = await n8n.rest.executionData<{
			resultData: {
				runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Json }>> } }>>;
			};
		}>(execution.id);
		for (const run of data.resultData.runData[TRIGGER_NODE] ?? [])
			reported.push(
				...(run.data?.main[0] ?? []).map((item) => ({ ...item.json, seenAt: Date.now() })),
			);
	}
}

const idOf = (item: Json) => String((item.record as Json).id);
/** The items that report `event` for record `id`: a change that is several moments is one item, its `events` lists them all. */
const of = (event: string, id: string) =>
	reported.filter(
		(item) => (item.events as string[] | undefined)?.includes(event) && idOf(item) === id,
	);

/** Waits until `event` is reported for record `id`; returns how long after `since` it was seen. */
async function until(event: string, id: string, since: number, timeoutMs = 2 * MINUTE) {
	await waitFor(
		`${event} for ${id}`,
		async () => {
			await collect();
			return of(event, id).length > 0 || undefined;
		},
		{ timeoutMs, intervalMs: 1000 },
	);
	return of(event, id)[0].seenAt - since;
}

/** Two more whole polls pass, and their executions finish. */
const twoPolls = async () => {
	await (await PollWatch.start(n8n.control, n8n.rest, WORKFLOW)).ended(2);
	await collect();
};

const sandboxNow = async () => Date.parse((await n8n.control.getClock()).now);

beforeAll(async () => {
	n8n = await DurableN8n.prepare('moments', () => [
		chain(WORKFLOW, 'Moments poll', [
			{
				name: TRIGGER_NODE,
				type: NODE_TYPES.poll,
				typeVersion: 1,
				parameters: {
					pollTimes: every15Seconds(),
					events: EVENTS,
					options: { startingHours: 24, endedHours: 48 },
				},
				credentials: { inspectionBusinessApi: SANDBOX_CREDENTIAL },
			},
		]),
	]);
	await n8n.start();
	// The baseline reports nothing: an inspection created after it is the first item.
	let lastTouch = 0;
	const sentinels: string[] = [];
	await waitFor(
		'the baseline to end and an inspection created after it to be reported',
		async () => {
			if (Date.now() - lastTouch > 20_000) {
				sentinels.push(String((await n8n.control.createInspection({ org: 'acme' })).id));
				lastTouch = Date.now();
			}
			await collect();
			return reported.some((item) => sentinels.includes(idOf(item))) || undefined;
		},
		{ timeoutMs: 6 * MINUTE, intervalMs: 2000 },
	);
}, 10 * MINUTE);

afterAll(async () => await n8n?.dispose());

it(
	'reports each change moment once, soon after it happened, with its event and record',
	async () => {
		const { control } = n8n;
		const a = String((await control.createInspection({ org: 'acme', status: 'confirmed' })).id);
		const b = String((await control.createInspection({ org: 'acme', status: 'confirmed' })).id);
		await control.addAgreements(b, ['Pre-Inspection Agreement', 'Radon Addendum']);
		const contact = String(
			(await control.createContact('acme', { first_name: 'Moe', email: 'moe.moments@example.com' }))
				.id,
		);
		await until('inspection.created', b, Date.now());

		let at = Date.now();
		await control.addPayment(a, 100);
		await control.signAgreements(b, 0);
		await twoPolls();
		// A partial payment is not paid; one agreement of two is not signed.
		expect(of('inspection.paid', a)).toEqual([]);
		expect(of('inspection.agreements_signed', b)).toEqual([]);

		at = Date.now();
		await control.addPayment(a, 325);
		expect(await until('inspection.paid', a, at)).toBeLessThan(REPORTED_WITHIN_MS);

		at = Date.now();
		await control.payInspection(b);
		await control.signAgreements(b, 1);
		expect(await until('inspection.paid_and_signed', b, at)).toBeLessThan(REPORTED_WITHIN_MS);
		at = Date.now();
		await control.publishReports(b);
		expect(await until('inspection.paid_signed_published', b, at)).toBeLessThan(REPORTED_WITHIN_MS);

		at = Date.now();
		await control.assignInspector(a, { id: 'insp-acme-9', name: 'Jordan Lee' });
		await control.removeInspector(a, 'insp-acme-1');
		await control.addService(a, {
			id: 'addon-42',
			name: 'Sewer Scope',
			kind: 'add_on',
			price: 175,
		});
		await control.addContactToInspection(a, contact, 'Buyer Agent');
		expect(await until('inspection.fees_changed', a, at)).toBeLessThan(REPORTED_WITHIN_MS);
		expect(await until('inspection.inspector_removed', a, at)).toBeLessThan(REPORTED_WITHIN_MS);
		expect(await until('contact.new_role', contact, at)).toBeLessThan(REPORTED_WITHIN_MS);

		await twoPolls();
		// The inspector a new inspection comes with is assigned at its creation; then the one added.
		const assigned = of('inspection.inspector_assigned', a).map((item) => item.inspector);
		expect(assigned).toEqual([
			{ id: 'insp-acme-1', name: 'Alex Rivera' },
			{ id: 'insp-acme-9', name: 'Jordan Lee' },
		]);
		expect(of('inspection.inspector_removed', a).map((item) => item.inspector)).toEqual([
			{ id: 'insp-acme-1', name: 'Alex Rivera' },
		]);
		expect(of('contact.new_role', contact)[0].new_roles).toEqual(['Buyer Agent']);
		expect(of('inspection.fees_changed', a)[0].changes).toMatchObject({
			'price.quote': { before: 425, after: 600 },
		});
		// Each once: the paid item of `a` carries the record as paid.
		for (const [event, id] of [
			['inspection.paid', a],
			['inspection.paid_and_signed', b],
			['inspection.paid_signed_published', b],
			['inspection.fees_changed', a],
			['contact.new_role', contact],
		])
			expect({ event, id, count: of(event, id).length }).toEqual({ event, id, count: 1 });
		expect(of('inspection.paid', a)[0].record).toMatchObject({
			id: a,
			price: { paid: true, amount_due: 0 },
		});
	},
	10 * MINUTE,
);

it(
	'reports starting and ended after their time and not before, once, also when the time came while n8n was stopped',
	async () => {
		const { control } = n8n;
		const start = (await sandboxNow()) + 30 * HOUR;
		const id = String(
			(
				await control.createInspection({
					org: 'acme',
					status: 'confirmed',
					scheduled_for: new Date(start).toISOString(),
					duration_hours: 3,
				})
			).id,
		);
		await until('inspection.created', id, Date.now());

		await control.setClock(new Date(start - 24 * HOUR - 10 * MINUTE).toISOString());
		await twoPolls();
		expect(of('inspection.starting', id)).toEqual([]);
		const at = Date.now();
		await control.setClock(new Date(start - 24 * HOUR + MINUTE).toISOString());
		expect(await until('inspection.starting', id, at)).toBeLessThan(REPORTED_WITHIN_MS);
		expect(of('inspection.starting', id)[0]).toMatchObject({
			events: ['inspection.starting'],
			record: { id, status: 'confirmed' },
			moment_at: new Date(start - 24 * HOUR).toISOString(),
		});

		// Stopped over the "ended" moment (48 hours after the 3-hour inspection), started again after it.
		await n8n.stop();
		await control.setClock(new Date(start + 3 * HOUR + 50 * HOUR).toISOString());
		const restarted = Date.now();
		await n8n.start();
		await until('inspection.ended', id, restarted, 3 * MINUTE);
		expect(of('inspection.ended', id)[0]).toMatchObject({
			moment_at: new Date(start + 3 * HOUR + 48 * HOUR).toISOString(),
		});
		await twoPolls();
		expect(of('inspection.starting', id)).toHaveLength(1);
		expect(of('inspection.ended', id)).toHaveLength(1);
	},
	12 * MINUTE,
);
