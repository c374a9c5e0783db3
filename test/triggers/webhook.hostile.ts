/**
 * A sender that chooses its delivery ids' length cannot grow the trigger's stored state: the
 * static data n8n saves with every delivery holds at most REPLAY_MEMORY.idBytes of id per
 * delivery (a longer id is remembered by its SHA-256), a repeat of a long id is still recognised,
 * and ordinary ids are remembered as they are, so memories stored before the bound still match.
 * (test/e2e/hostile.e2e.test.ts measures the same in a real n8n's database.)
 */
import type { IDataObject } from 'n8n-workflow';

import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { REPLAY_MEMORY } from '../../nodes/InspectionBusinessWebhookTrigger/replay';
import { runWebhook } from '../helpers/n8n';

export function hostileDeliveryIds(): void {
	const trigger = new InspectionBusinessWebhookTrigger();
	const SECRET = 'hostile secret';
	const MEGABYTE = 1024 * 1024;

	/** A delivery id of `bytes` bytes, different for each `index`. */
	const hugeId = (index: number, bytes = MEGABYTE) => `${index}-`.padEnd(bytes, 'x');

	async function deliver(id: string, staticData: IDataObject, workflowId: string) {
		const outcome = await runWebhook({
			node: trigger,
			parameters: {},
			webhookSecret: SECRET,
			staticData,
			workflowId,
			request: {
				headers: { 'X-Webhook-Secret': SECRET },
				body: {
					id,
					event: 'contact.changed',
					data: { id: '0d5c2b1e-8d47-4c1a-9e2f-6b5a4d3c2b1a' },
				},
			},
		});
		if (outcome.error) throw outcome.error;
		return outcome.result?.workflowData ? 'execution' : 'ignored';
	}

	const storedBytes = (staticData: IDataObject) => Buffer.byteLength(JSON.stringify(staticData));
	/** The trigger node's static data, as n8n keys it (`node:<name>`; the harness names it Trigger). */
	const NODE_KEY = 'node:Trigger';
	const storedIds = (staticData: IDataObject) =>
		((staticData[NODE_KEY] as IDataObject).deliveries as Array<[string, number]>).map(([id]) => id);
	const freshWorkflow = () => ({ staticData: {} as IDataObject, workflowId: crypto.randomUUID() });

	/** The most one remembered delivery may add to the stored JSON: its id's bound, its time, the brackets. */
	const BYTES_PER_DELIVERY = REPLAY_MEMORY.idBytes + 2 + 20;

	it('50 deliveries with 1 MB ids each add less than the bound per delivery to the static data', async () => {
		const { staticData, workflowId } = freshWorkflow();
		for (let index = 0; index < 50; index++)
			expect(await deliver(hugeId(index), staticData, workflowId)).toBe('execution');
		expect(storedIds(staticData)).toHaveLength(50);
		expect(storedBytes(staticData)).toBeLessThan(50 * BYTES_PER_DELIVERY);
	});

	it('a repeat of a delivery with a huge id is still recognised, by its hash', async () => {
		const { staticData, workflowId } = freshWorkflow();
		expect(await deliver(hugeId(1), staticData, workflowId)).toBe('execution');
		// A copy of the stored data: the repeat is seen from what n8n saved, not only from this process.
		const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		expect(await deliver(hugeId(1), saved, crypto.randomUUID())).toBe('ignored');
		expect(await deliver(hugeId(2), saved, crypto.randomUUID())).toBe('execution');
	});

	it('ids up to the bound are remembered as they are; one byte more is remembered by its hash', async () => {
		const { staticData, workflowId } = freshWorkflow();
		const uuid = '3e0b6a52-0000-4000-8000-00000000d001';
		const longest = hugeId(7, REPLAY_MEMORY.idBytes);
		const tooLong = hugeId(8, REPLAY_MEMORY.idBytes + 1);
		for (const id of [uuid, longest, tooLong]) await deliver(id, staticData, workflowId);
		const [first, second, third] = storedIds(staticData);
		expect([first, second]).toEqual([uuid, longest]);
		expect(third).toMatch(/^sha256:[0-9a-f]{64}$/);
	});

	it('a memory stored before the bound (plain ids) still recognises its deliveries', async () => {
		const uuid = '3e0b6a52-0000-4000-8000-00000000d009';
		const staticData: IDataObject = { [NODE_KEY]: { deliveries: [[uuid, Date.now() - 60_000]] } };
		expect(await deliver(uuid, staticData, crypto.randomUUID())).toBe('ignored');
	});
}
