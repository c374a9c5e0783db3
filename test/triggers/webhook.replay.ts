/**
 * Repeated deliveries (the payload assumption: a repeat carries the same delivery id), concurrent
 * ones, and a failing re-fetch. The static data object passed to each run stands for what n8n
 * persists between webhook requests; a JSON copy of it stands for a request that loaded the
 * workflow from the database before another request's save.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { DeliveryMemory, REPLAY_MEMORY } from '../../nodes/InspectionBusinessWebhookTrigger/replay';
import { runWebhook, withSandbox } from '../helpers/n8n';

export function replays(): void {
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
		options: { apiKey?: string; secret?: string; workflowId?: string } = {},
	) {
		const refetch = parameters.refetchRecord === true;
		return await runWebhook({
			node: trigger,
			parameters,
			webhookSecret: SECRET,
			staticData,
			workflowId: options.workflowId,
			credentials: refetch
				? { ...sandbox.credentials(), ...(options.apiKey ? { apiKey: options.apiKey } : {}) }
				: undefined,
			request: { headers: { 'X-Webhook-Secret': options.secret ?? SECRET }, body },
		});
	}

	/** How each delivery was answered: an execution, an acknowledged repeat, a 401 or an error. */
	const outcomeOf = (outcome: Awaited<ReturnType<typeof deliver>>) => {
		if (outcome.error) return 'error';
		if (outcome.result?.workflowData) return 'execution';
		if (outcome.response.ended) return outcome.response.statusCode;
		return String((outcome.result?.webhookResponse as IDataObject | undefined)?.ignored);
	};

	/** A fresh workflow: its own static data and its own id, so nothing of another test is remembered. */
	const freshWorkflow = () => ({ staticData: {} as IDataObject, workflowId: crypto.randomUUID() });

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

		test('a payload whose top-level id equals the record id under data has no delivery id: a second change of the record runs', async () => {
			const staticData: IDataObject = {};
			const outcomes = [];
			for (const event of ['inspection.confirmed', 'inspection.rescheduled'])
				outcomes.push(await deliver({ id: RECORD, event, data: { id: RECORD } }, staticData));
			expect(outcomes.map(outcomeOf)).toEqual(['execution', 'execution']);
			expect(outcomes[1].result?.workflowData?.[0][0].json).toMatchObject({
				id: RECORD,
				deliveryId: null,
			});
			expect(JSON.stringify(staticData)).not.toContain(RECORD);
			// A true delivery id about the same record is still remembered.
			const twice = [await deliver(envelope(), staticData), await deliver(envelope(), staticData)];
			expect(twice.map(outcomeOf)).toEqual([
				'execution',
				`delivery ${DELIVERY} was already received`,
			]);
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
		test('fails visibly after the acknowledgement, naming record and delivery, and leaves it unremembered so a re-send runs', async () => {
			const inspection = (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject;
			const body = envelope(DELIVERY, String(inspection.id));
			const staticData: IDataObject = {};
			const failed = await deliver(
				body,
				staticData,
				{ refetchRecord: true },
				{ apiKey: 'ib_live_wrong_key' },
			);
			// The sender was already told 200; n8n records the thrown error as a failed execution.
			expect(failed.response).toMatchObject({
				statusCode: 200,
				ended: true,
				body: { received: true },
			});
			expect(failed.error?.message).toMatch(
				new RegExp(
					`^Could not re-fetch inspection ${String(inspection.id)} of delivery ${DELIVERY} \\(.+\\)$`,
				),
			);
			expect(JSON.stringify(staticData)).not.toContain(DELIVERY);

			const resent = await deliver(body, staticData, { refetchRecord: true });
			expect(resent.result?.workflowData?.[0][0].json).toMatchObject({
				id: inspection.id,
				deliveryId: DELIVERY,
				record: { id: inspection.id },
			});
			expect(outcomeOf(await deliver(body, staticData, { refetchRecord: true }))).toBe(
				`delivery ${DELIVERY} was already received`,
			);
		});
	});

	describe('deliveries that overlap', () => {
		test('the same delivery posted 5 times at once starts one execution', async () => {
			const { staticData, workflowId } = freshWorkflow();
			// Each request loaded its own copy of the static data before any of them was saved.
			const outcomes = await Promise.all(
				Array.from({ length: 5 }, () =>
					deliver(
						envelope(),
						JSON.parse(JSON.stringify(staticData)) as IDataObject,
						{},
						{ workflowId },
					),
				),
			);
			expect(outcomes.map(outcomeOf).filter((outcome) => outcome === 'execution')).toHaveLength(1);
		});

		test('a repeat is recognised although a concurrent delivery saved static data without it', async () => {
			const { workflowId } = freshWorkflow();
			const first = '3e0b6a52-0000-4000-8000-00000000e001';
			const second = '3e0b6a52-0000-4000-8000-00000000e002';
			// Both requests load the same (empty) state; the second's save is the one n8n keeps.
			const [loadedByFirst, loadedBySecond] = [{}, {}] as IDataObject[];
			expect(outcomeOf(await deliver(envelope(first), loadedByFirst, {}, { workflowId }))).toBe(
				'execution',
			);
			expect(outcomeOf(await deliver(envelope(second), loadedBySecond, {}, { workflowId }))).toBe(
				'execution',
			);
			// The last save holds both, so a restart (which forgets the process) still knows the first.
			const saved = JSON.stringify(loadedBySecond);
			expect([saved.includes(first), saved.includes(second)]).toEqual([true, true]);
			const afterSave = JSON.parse(JSON.stringify(loadedBySecond)) as IDataObject;
			expect(outcomeOf(await deliver(envelope(first), afterSave, {}, { workflowId }))).toBe(
				`delivery ${first} was already received`,
			);
			// Another workflow (a restarted process sees only the database) knows it from the saved state.
			expect(outcomeOf(await deliver(envelope(first), afterSave))).toBe(
				`delivery ${first} was already received`,
			);
		});
	});

	describe('the bounded memory', () => {
		const HOUR = 60 * 60 * 1000;
		let clock = 0;
		const memoryOf = (store: IDataObject) =>
			new DeliveryMemory(store, crypto.randomUUID(), () => clock);
		const remember = (memory: DeliveryMemory, id: string, at: number) => {
			clock = at;
			memory.take(id);
			memory.save();
		};

		test('keeps the last 1,000 deliveries', () => {
			const store: IDataObject = {};
			const memory = memoryOf(store);
			for (let i = 0; i <= REPLAY_MEMORY.deliveries; i++) remember(memory, `d-${i}`, i);
			expect(store.deliveries).toHaveLength(REPLAY_MEMORY.deliveries);
			clock = 2000;
			expect(memory.isRepeat('d-0')).toBe(false);
			expect(memory.isRepeat('d-1')).toBe(true);
			expect(memory.isRepeat(`d-${REPLAY_MEMORY.deliveries}`)).toBe(true);
			// What a restarted process reads back from the database.
			const restarted = memoryOf(JSON.parse(JSON.stringify(store)) as IDataObject);
			expect(restarted.isRepeat('d-0')).toBe(false);
			expect(restarted.isRepeat('d-1')).toBe(true);
		});

		test('forgets a delivery after 24 hours, and drops it when the next one is saved', () => {
			const store: IDataObject = {};
			const memory = memoryOf(store);
			remember(memory, 'old', 0);
			clock = 24 * HOUR - 1;
			expect(memory.isRepeat('old')).toBe(true);
			clock = 24 * HOUR;
			expect(memory.isRepeat('old')).toBe(false);
			remember(memory, 'new', 24 * HOUR);
			expect(store.deliveries).toEqual([['new', 24 * HOUR]]);
		});

		test('checking changes nothing; a released claim is forgotten', () => {
			const store: IDataObject = {};
			const memory = memoryOf(store);
			remember(memory, 'a', 1);
			const before = JSON.stringify(store);
			memory.isRepeat('a');
			expect(JSON.stringify(store)).toBe(before);
			clock = 2;
			memory.take('b');
			expect(memory.isRepeat('b')).toBe(true);
			memory.release('b');
			expect(memory.isRepeat('b')).toBe(false);
			memory.save();
			expect(store.deliveries).toEqual([['a', 1]]);
		});
	});

	test('a state at the bound stays small: 1,000 UUID deliveries take under 60 kB of static data', () => {
		const store: IDataObject = {};
		const memory = new DeliveryMemory(store, 'size', () => 1e12);
		for (let i = 0; i < REPLAY_MEMORY.deliveries; i++) memory.take(crypto.randomUUID());
		memory.save();
		expect(JSON.stringify(store).length).toBeLessThan(60_000);
	});
}
