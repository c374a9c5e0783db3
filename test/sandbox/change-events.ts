/**
 * The changes table (sandbox/changes.ts) against the polling trigger itself:
 * each `npm run sandbox -- <change>` makes, at the trigger's next poll, every
 * event the table says it always makes, and no event the table does not name,
 * on the records it changed; the time moments come with the clock command.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { InspectionBusinessTrigger } from '../../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import {
	CHANGES,
	makeChange,
	TRIGGER_EVENT_LABELS,
	type Change,
	type TriggerEvent,
} from '../../sandbox/changes';
import { runPoll, withSandbox } from '../helpers/n8n';

export function changeEvents(): void {
	const sandbox = withSandbox({}, { reset: true });
	const trigger = new InspectionBusinessTrigger();
	const EVERY_EVENT = Object.keys(TRIGGER_EVENT_LABELS) as PollEvent[];

	/** A poller of the trigger with every event the changes make selected, and the default options. */
	function poller() {
		const staticData: IDataObject = {};
		return async () => {
			const result = await runPoll({
				node: trigger,
				parameters: { events: EVERY_EVENT, options: {} },
				credentials: sandbox.credentials(),
				staticData,
			});
			if (result.error) throw result.error;
			return result.items.map((item: INodeExecutionData) => item.json);
		};
	}

	const eventName = (expected: Change['events'][number]): TriggerEvent =>
		typeof expected === 'string' ? expected : expected[0];
	/** Every event of the items about these records. */
	const eventsOn = (items: IDataObject[], ids: string[]) =>
		new Set(
			items
				.filter((item) => ids.includes(String((item.record as IDataObject | null)?.id)))
				.flatMap((item) => item.events as TriggerEvent[]),
		);

	/** What the table promises and what the trigger reported, as two lists that should be empty. */
	function disagreement(change: Change, reported: Set<TriggerEvent>) {
		const always = change.events.filter((e) => typeof e === 'string');
		const named = change.events.map(eventName);
		return {
			missing: always.filter((event) => !reported.has(event)),
			unexpected: [...reported].filter((event) => !named.includes(event)),
		};
	}

	/** Waits into the next whole second, so the baseline does not take the first change for its own. */
	const nextSecond = async () =>
		await new Promise((resolve) => setTimeout(resolve, 1_001 - (Date.now() % 1_000)));

	/**
	 * One trigger (one baseline) sees every change in turn, in an order that tells a story: a part
	 * payment, the rest, an add-on sold after and paid, then every other change, and last an
	 * inspection booked soon, confirmed and waiting, and time passing.
	 */
	const STEPS: Array<[name: string, args?: string[]]> = [
		['pay-part'],
		['pay'],
		['add-service'],
		['pay'],
		...Object.keys(CHANGES)
			.filter((name) => !['pay-part', 'pay', 'add-service', 'clock'].includes(name))
			.map((name): [string] => [name]),
		// Two hours long, from about an hour from now: 28 hours on, it ended more than 24 hours ago
		// (the trigger keeps an end to the quarter hour, rounded up).
		['clock', ['28h']],
	];

	test('each change makes, at the next poll, the events its row names, on the records it changed', async () => {
		const poll = poller();
		await nextSecond();
		expect(await poll()).toEqual([]); // the baseline
		const steps: Array<{ name: string; id?: string; reported: Set<TriggerEvent> }> = [];
		const booked: string[] = [];
		for (const [name, args = []] of STEPS) {
			const result = await makeChange(sandbox.baseUrl, name, { args });
			if (name.startsWith('schedule-soon')) booked.push(result.id!);
			// The clock's moments are looked at on the inspections booked soon (the demo data has others).
			const ids = name === 'clock' ? booked : [result.id, result.inspection?.id];
			const on = ids.filter((id): id is string => Boolean(id));
			const items = await poll();
			steps.push({ name, id: result.id, reported: eventsOn(items, on) });
			if (name === 'clock')
				steps.push({
					name: 'clock (the confirmed one)',
					reported: eventsOn(items, booked.slice(0, 1)),
				});
		}

		const agree = { missing: [], unexpected: [] };
		expect(
			steps
				.filter((step) => step.name in CHANGES)
				.map(({ name, reported }) => ({ name, ...disagreement(CHANGES[name], reported) })),
		).toEqual(STEPS.map(([name]) => ({ name, ...agree })));

		// The part payment is not paid; the rest, on the same inspection (changed last), makes it paid;
		// an add-on sold after it is due, and paying it is not Paid again (Only Trigger Once, the default).
		const [part, rest, addOn, again] = steps;
		expect([part, rest, addOn, again].map(({ id }) => id)).toEqual(Array(4).fill(part.id));
		expect(
			[part, rest, addOn, again].map(({ reported }) => reported.has('inspection.paid')),
		).toEqual([false, true, false, false]);
		// Booked to start within the hours before it, the confirmed one is starting at once; once the
		// clock is past its end and the hours after it, it has ended.
		const soon = steps.find((step) => step.name === 'schedule-soon')!;
		expect(soon.reported.has('inspection.starting')).toBe(true);
		expect(steps.at(-1)!.reported).toEqual(new Set(['inspection.ended']));
	}, 180_000); // some 25 polls through n8n-core: seconds alone, longer beside a busy process
}
