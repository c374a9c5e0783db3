/**
 * Repeated deliveries (A14: a repeat carries the same delivery id) and a failing re-fetch. The
 * static data object passed to each run stands for what n8n persists between webhook requests.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import {
	isRepeat,
	remember,
	REPLAY_MEMORY,
} from '../../nodes/InspectionBusinessWebhookTrigger/replay';
import { runWebhook, withSandbox } from '../helpers/n8n';

const sandbox = withSandbox();
const trigger = new InspectionBusinessWebhookTrigger();
const SECRET = 'replay secret';
const DELIVERY = '3e0b6a52-0000-4000-8000-00000000d001';
const RECORD = '0d5c2b1e-8d47-4c1a-9e2f-6b5a4d3c2b1a';

const envelope = (id = DELIVERY, record = RECORD) => ({
	id,
	event: 'inspection.confirmed',
	occurred_at: '2026-11-21T10:00:00.000Z',
	data: { id: record },
});

async function deliver(
	body: unknown,
	staticData: IDataObject,
	parameters: INodeParameters = {},
	options: { apiKey?: string; secret?: string } = {},
) {
	const refetch = parameters.refetchRecord === true;
	return await runWebhook({
		node: trigger,
		parameters,
		webhookSecret: SECRET,
		staticData,
		credentials: refetch
			? { ...sandbox.credentials(), ...(options.apiKey ? { apiKey: options.apiKey } : {}) }
			: undefined,
		request: { headers: { 'X-Webhook-Secret': options.secret ?? SECRET }, body },
	});
}

/** How each delivery was answered: an execution, an acknowledged repeat, a 401 or an error. */
const outcomeOf = (outcome: Awaited<ReturnType<typeof deliver>>) => {
	if (outcome.error) return 'error';
	if (outcome.response.ended) return outcome.response.statusCode;
	if (outcome.result?.workflowData) return 'execution';
	return String((outcome.result?.webhookResponse as IDataObject | undefined)?.ignored);
};

describe('repeated deliveries', () => {
	test('the same delivery posted 3 times starts one execution; the repeats are acknowledged', async () => {
		const staticData: IDataObject = {};
		const outcomes = [];
		for (let i = 0; i < 3; i++) outcomes.push(outcomeOf(await deliver(envelope(), staticData)));
		expect(outcomes).toEqual([
			'execution',
			`delivery ${DELIVERY} was already received`,
			`delivery ${DELIVERY} was already received`,
		]);
		// Another delivery about the same record is a new event and runs.
		const next = await deliver(envelope('3e0b6a52-0000-4000-8000-00000000d002'), staticData);
		expect(outcomeOf(next)).toBe('execution');
	});

	test('turned off, every post starts an execution', async () => {
		const staticData: IDataObject = {};
		const outcomes = [];
		for (let i = 0; i < 3; i++)
			outcomes.push(outcomeOf(await deliver(envelope(), staticData, { ignoreRepeats: false })));
		expect(outcomes).toEqual(['execution', 'execution', 'execution']);
	});

	test('a payload whose top-level id is its record id has no delivery id, so it always runs', async () => {
		const staticData: IDataObject = {};
		const body = { event: 'contact.changed', id: RECORD };
		expect([
			outcomeOf(await deliver(body, staticData)),
			outcomeOf(await deliver(body, staticData)),
		]).toEqual(['execution', 'execution']);
	});

	test('a refused or unselected delivery is not remembered, so it runs once accepted', async () => {
		const staticData: IDataObject = {};
		expect(outcomeOf(await deliver(envelope(), staticData, {}, { secret: 'wrong' }))).toBe(401);
		const selectedElsewhere = { events: ['contact.changed'] };
		expect(outcomeOf(await deliver(envelope(), staticData, selectedElsewhere))).toBe(
			'event inspection.confirmed is not selected',
		);
		expect(outcomeOf(await deliver(envelope(), staticData))).toBe('execution');
	});
});

describe('a failing re-fetch', () => {
	test('names the record, says the delivery was not acknowledged, and leaves it unremembered so the retry runs', async () => {
		const inspection = (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject;
		const body = envelope(DELIVERY, String(inspection.id));
		const staticData: IDataObject = {};
		const failed = await deliver(
			body,
			staticData,
			{ refetchRecord: true },
			{ apiKey: 'ib_live_wrong_key' },
		);
		expect(failed.error?.message).toMatch(
			new RegExp(
				`^Could not re-fetch inspection ${String(inspection.id)} \\(.+\\); delivery ${DELIVERY} was not acknowledged$`,
			),
		);
		expect(JSON.stringify(staticData)).not.toContain(DELIVERY);

		const retried = await deliver(body, staticData, { refetchRecord: true });
		expect(retried.result?.workflowData?.[0][0].json).toMatchObject({
			id: inspection.id,
			deliveryId: DELIVERY,
			record: { id: inspection.id },
		});
		expect(outcomeOf(await deliver(body, staticData, { refetchRecord: true }))).toBe(
			`delivery ${DELIVERY} was already received`,
		);
	});
});

describe('the bounded memory', () => {
	const HOUR = 60 * 60 * 1000;

	test('keeps the last 1,000 deliveries', () => {
		const store: IDataObject = {};
		for (let i = 0; i <= REPLAY_MEMORY.deliveries; i++) remember(store, `d-${i}`, i);
		expect(store.deliveries).toHaveLength(REPLAY_MEMORY.deliveries);
		expect(isRepeat(store, 'd-0', 2000)).toBe(false);
		expect(isRepeat(store, 'd-1', 2000)).toBe(true);
		expect(isRepeat(store, `d-${REPLAY_MEMORY.deliveries}`, 2000)).toBe(true);
	});

	test('forgets a delivery after 24 hours, and drops it when the next one is remembered', () => {
		const store: IDataObject = {};
		remember(store, 'old', 0);
		expect(isRepeat(store, 'old', 24 * HOUR - 1)).toBe(true);
		expect(isRepeat(store, 'old', 24 * HOUR)).toBe(false);
		remember(store, 'new', 24 * HOUR);
		expect(store.deliveries).toEqual([['new', 24 * HOUR]]);
	});

	test('checking changes nothing; remembering a known id again moves it to the newest place', () => {
		const store: IDataObject = {};
		remember(store, 'a', 1);
		remember(store, 'b', 2);
		const before = JSON.stringify(store);
		isRepeat(store, 'a', 3);
		expect(JSON.stringify(store)).toBe(before);
		remember(store, 'a', 3);
		expect(store.deliveries).toEqual([
			['b', 2],
			['a', 3],
		]);
	});
});

test('a state at the bound stays small: 1,000 UUID deliveries take under 60 kB of static data', () => {
	const store: IDataObject = {};
	for (let i = 0; i < REPLAY_MEMORY.deliveries; i++) remember(store, crypto.randomUUID(), 1e12 + i);
	expect(JSON.stringify(store).length).toBeLessThan(60_000);
});
