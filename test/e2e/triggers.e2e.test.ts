/**
 * The triggers, published and running under `n8n start`: the polling trigger
 * reports the changes the sandbox makes to Globex's inspections and contacts;
 * the webhook trigger takes the sandbox's webhook deliveries and refuses a
 * request with a wrong secret.
 */
import { SandboxControl } from '../../sandbox/client';
import { SANDBOX_KEYS } from '../../sandbox/index';
import type { N8nRestClient } from '../../scripts/n8n-rest';
import { waitFor } from '../../scripts/processes';
import { ExecutionWatcher } from './support/executions';
import { ownerSession } from './support/n8n';
import { SandboxApi } from './support/sandbox-api';
import { readState } from './support/state';
import { POLL_TRIGGER } from './workflows/triggers';

type Json = Record<string, unknown>;
type Inspection = Json & { id: string; status: string; reports: { status: string } };

const MINUTE = 60_000;
const state = readState();
const control = new SandboxControl(state.sandboxUrl);
const globex = new SandboxApi(state.sandboxUrl, SANDBOX_KEYS.globex);
let rest: N8nRestClient;

const recordId = (item: Json) => (item.record as Json | undefined)?.id;

beforeAll(async () => {
	rest = await ownerSession();
});

describe('polling trigger', () => {
	it('emits one item per change the sandbox makes to inspections and contacts, with the right event', async () => {
		const watcher = await ExecutionWatcher.start(rest, POLL_TRIGGER.id, POLL_TRIGGER.node);
		const [sentinel, edited] = await globex.all<Json & { id: string }>('/v1/contacts');
		const collected: Json[] = [];

		// The trigger polls once a minute (n8n's shortest interval). A first poll only takes a
		// baseline, so touch a sentinel contact until one of its changes comes through: from
		// then on every change must be reported.
		let touches = 0;
		let lastTouch = 0;
		await waitFor(
			'the polling trigger to report a change of the sentinel contact',
			async () => {
				if (Date.now() - lastTouch > 20_000) {
					await control.updateContact(sentinel.id, { notes: `sentinel ${++touches}` });
					lastTouch = Date.now();
				}
				collected.push(...(await watcher.newItems()));
				return collected.some((item) => recordId(item) === sentinel.id && item.event === 'contact.updated') || undefined;
			},
			{ timeoutMs: 4 * MINUTE, intervalMs: 2000 },
		);

		const inspections = await globex.all<Inspection>('/v1/inspections');
		const pick = (what: string, test: (inspection: Inspection) => boolean, not: string[]) => {
			const found = inspections.find((inspection) => test(inspection) && !not.includes(inspection.id));
			if (!found) throw new Error(`The Globex seed has no inspection that is ${what}`);
			return found.id;
		};
		const toConfirm = pick('waiting or in review', (i) => i.status === 'waiting' || i.status === 'review', []);
		const toReschedule = pick('confirmed', (i) => i.status === 'confirmed', [toConfirm]);
		const toCancel = pick('confirmed', (i) => i.status === 'confirmed', [toConfirm, toReschedule]);
		const toPublish = pick('confirmed with unpublished reports', (i) => i.status === 'confirmed' && i.reports.status !== 'published', [toConfirm, toReschedule, toCancel]);
		const newTime = new Date(Date.now() + 7 * 24 * 60 * MINUTE).toISOString().replace(/:\d{2}\.\d{3}Z$/, ':00.000Z');

		const created = await control.createContact('globex', { first_name: 'Polled', last_name: 'Newcomer', email: 'polled.newcomer@example.com' });
		await control.updateContact(edited.id, { city: 'Aurora' });
		await control.confirmInspection(toConfirm);
		await control.rescheduleInspection(toReschedule, newTime);
		await control.cancelInspection(toCancel);
		await control.publishReports(toPublish);
		const expected = [
			['contact.created', created.id],
			['contact.updated', edited.id],
			['inspection.confirmed', toConfirm],
			['inspection.rescheduled', toReschedule],
			['inspection.canceled', toCancel],
			['inspection.published', toPublish],
		];

		const afterChanges: Json[] = [];
		await waitFor(
			'the polling trigger to report the six changes',
			async () => {
				afterChanges.push(...(await watcher.newItems()));
				return expected.every(([event, id]) => afterChanges.some((item) => item.event === event && recordId(item) === id)) || undefined;
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
		);
		const reported = afterChanges.filter((item) => recordId(item) !== sentinel.id).map((item) => [item.event, recordId(item)]);
		expect(reported.sort()).toEqual(expected.sort());
		const rescheduled = afterChanges.find((item) => recordId(item) === toReschedule)!;
		expect(rescheduled.record).toMatchObject({ scheduled_for: newTime });
		expect(afterChanges.find((item) => recordId(item) === edited.id)!.record).toMatchObject({ city: 'Aurora' });
	});
});
