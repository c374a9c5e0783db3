/**
 * A state written before the compact slots (core/slots.ts) keeps working
 * after the upgrade: schedules held in milliseconds and payment statuses held
 * as text read as the same values, so an idle poll reports nothing and leaves
 * the state as it was, and a real change reports only what changed.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import { HOUR, MomentsApi, pay } from './moments-api';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

/** The node's defaults, one item per change (version 1's shape, which these tests read). */
const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

const EVENTS: PollEvent[] = [
	'inspection.updated',
	'inspection.rescheduled',
	'inspection.paid',
	'inspection.fees_changed',
	'inspection.confirmed',
];
const PAYMENT_STATUSES = ['paid', 'unpaid', 'partial'];
const idOf = (item: IDataObject) => (item.record as IDataObject).id;

/** The slots of an inspection entry as an earlier version wrote them: ms times, statuses as text. */
function toEarlierForm(seen: string): string {
	return seen
		.split(' ')
		.map((entry) => {
			const [key, packed] = entry.split('=');
			const slots = packed.split(',');
			// After the version: status, reports.status, deleted, scheduled_for, payment status.
			const minutesOrMs = slots[4];
			if (minutesOrMs !== '' && minutesOrMs.length < 8)
				slots[4] = (parseInt(minutesOrMs, 36) * 60_000).toString(36);
			const status = slots[5];
			if (/^\d$/.test(status)) slots[5] = PAYMENT_STATUSES[Number(status)];
			else if (status.startsWith('~')) slots[5] = status.slice(1);
			return `${key}=${slots.join(',')}`;
		})
		.join(' ');
}

test('an earlier state reads the same: an idle poll reports nothing, a payment reports only the payment', async () => {
	const api = new MomentsApi();
	const onTheHour = api.createInspection({ scheduled_for: '2030-03-04T09:00:00.000Z' });
	const oddTime = api.createInspection({ scheduled_for: '2030-03-04T13:30:15.250Z' });
	const customStatus = api.createInspection({
		price: { quote: 300, amount_paid: 0, amount_due: 300, payment_status: 'Awaiting' },
	});
	const poll = (state: IDataObject) =>
		runPoll(state, api, {
			...PER_CHANGE,
			events: EVENTS,
			overlapMs: 5 * 60_000,
			emitExisting: false,
			budgetMs: 60_000,
			now: () => api.now,
		});

	const baseline = await poll({});
	expect(baseline.items).toEqual([]);
	const stored = JSON.parse(JSON.stringify(baseline.state)) as IDataObject;
	const inspections = stored.inspections as IDataObject;
	const compact = String(inspections.seen);
	inspections.seen = toEarlierForm(compact);
	// The rewrite did change the stored text: the test reads the earlier forms.
	expect(inspections.seen).not.toBe(compact);
	expect(String(inspections.seen)).toContain('Awaiting');

	api.now += HOUR;
	const idle = await poll(JSON.parse(JSON.stringify(stored)) as IDataObject);
	expect(idle.items).toEqual([]);

	api.change('inspections', String(onTheHour.id), (r) => pay(r));
	const paid = await poll(JSON.parse(JSON.stringify(idle.state)) as IDataObject);
	expect(paid.items.map((item) => [idOf(item), item.events])).toEqual([
		[onTheHour.id, ['inspection.updated', 'inspection.paid']],
	]);
	expect(paid.items[0].changes).toEqual({
		'price.payment_status': { before: 'unpaid', after: 'paid' },
		'price.amount_due': { before: 425, after: 0 },
	});
	for (const untouched of [oddTime, customStatus])
		expect(paid.items.some((item) => idOf(item) === untouched.id)).toBe(false);
});

/** An inspection entry as a release before the kept facts wrote it: the version and six slots. */
const beforeKeptFacts = (seen: string) =>
	seen
		.split(' ')
		.map((entry) => {
			const [key, packed] = entry.split('=');
			return `${key}=${packed.split(',').slice(0, 7).join(',')}`;
		})
		.join(' ');

test.each([
	['kept as it is', 0],
	['rebuilt (300 unused dictionary values)', 300],
])(
	'fields an earlier state never held stay unknown when its dictionary is %s: a payment reports only the payment',
	async (_, unused) => {
		const api = new MomentsApi();
		const paidLater = api.createInspection();
		api.createInspection();
		const events: PollEvent[] = [...EVENTS, 'inspection.inspector_assigned'];
		const poll = (state: IDataObject) =>
			runPoll(state, api, {
			...PER_CHANGE,
				events,
				overlapMs: 5 * 60_000,
				emitExisting: false,
				budgetMs: 60_000,
				now: () => api.now,
			});
		const stored = JSON.parse(JSON.stringify((await poll({})).state)) as IDataObject;
		const inspections = stored.inspections as IDataObject;
		inspections.seen = beforeKeptFacts(String(inspections.seen));
		inspections.dict = [
			...((inspections.dict as string[] | undefined) ?? []),
			...Array.from({ length: unused }, (__, i) => `unused ${i}`),
		];

		api.now += HOUR;
		const idle = await poll(JSON.parse(JSON.stringify(stored)) as IDataObject);
		expect(idle.items).toEqual([]);
		// The rebuild ran: the unused values are gone.
		const dict = idle.state.inspections?.dict ?? [];
		expect(dict.length).toBeLessThan(unused || Infinity);

		api.change('inspections', String(paidLater.id), (r) => pay(r));
		const paid = await poll(JSON.parse(JSON.stringify(idle.state)) as IDataObject);
		expect(paid.items.map((item) => [idOf(item), item.events])).toEqual([
			[paidLater.id, ['inspection.updated', 'inspection.paid']],
		]);
		expect(Object.keys(paid.items[0].changes as IDataObject).sort()).toEqual([
			'price.amount_due',
			'price.payment_status',
		]);
	},
);
