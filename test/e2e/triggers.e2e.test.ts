/**
 * The triggers, published and running under `n8n start`: the polling trigger
 * reports the changes the sandbox makes to Globex's inspections, contacts,
 * contact tags and inspection events, with what changed;
 * the webhook trigger takes the sandbox's webhook deliveries and refuses a
 * request with a wrong secret; its version 2, with the secret in a credential,
 * starts one execution for a delivery posted several times, and n8n's database
 * keeps every delivery id it took.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { SANDBOX_KEYS } from '../../sandbox/index';
import { N8nDatabase } from '../../scripts/n8n-database';
import { waitFor } from '../../scripts/processes';
import { ExecutionWatcher } from './support/executions';
import { useN8n } from './support/instance';
import { SandboxApi } from './support/sandbox-api';
import {
	POLL_TRIGGER,
	REPLAY_TRIGGER,
	replayTriggerUrl,
	WEBHOOK_TRIGGER,
	webhookUrl,
} from './workflows/triggers';

type Json = Record<string, unknown>;
type Inspection = Json & { id: string; status: string; reports: { status: string } };

const MINUTE = 60_000;
const instance = useN8n('triggers', {
	template: 'suite',
	publish: [POLL_TRIGGER.id, WEBHOOK_TRIGGER.id, REPLAY_TRIGGER.id],
});
const globex = () => new SandboxApi(instance.sandboxUrl, SANDBOX_KEYS.globex);

const recordId = (item: Json) => (item.record as Json | undefined)?.id;

describe('polling trigger', () => {
	it('emits one item per change the sandbox makes to inspections, contacts, tags and inspection events, with the right event and changes', async () => {
		const watcher = await ExecutionWatcher.start(instance.rest, POLL_TRIGGER.id, POLL_TRIGGER.node);
		const contacts = await globex().all<Json & { id: string; updated_at: string }>('/v1/contacts');
		const [sentinel, edited] = contacts;
		// The trigger holds a contact 90 days after its last change, an inspection 90 days after its
		// last change and its end (docs/moments.md). Tag Added, Confirmed, Rescheduled and Report
		// Published are changes of records it holds: those are booked here, before the sentinel. A
		// seed contact untouched for longer gets a tag too: Updated, seen for the first time.
		const now = Date.parse((await instance.control.getClock()).now);
		const stale = contacts
			.slice(2, -2)
			.find((contact) => Date.parse(contact.updated_at) < now - 91 * 24 * 60 * MINUTE);
		if (!stale) throw new Error('The Globex seed has no contact untouched for 91 days');
		const book = async (status: string) =>
			String((await instance.control.createInspection({ org: 'globex', status })).id);
		const toConfirm = await book('waiting');
		const toReschedule = await book('confirmed');
		const toPublish = await book('confirmed');
		const tagged = (await instance.control.createContact('globex', {
			first_name: 'Tagged',
			email: 'tagged.polled@example.com',
		})) as Json & { id: string };
		const moved = await instance.control.createEvent({
			inspection_id: toReschedule,
			name: 'Radon monitor drop-off',
			start_at: new Date(now + 3 * 24 * 60 * MINUTE).toISOString(),
		});
		const collected: Json[] = [];

		// The trigger polls every 15 seconds. A first poll only takes a baseline, so touch a
		// sentinel contact until one of its changes comes through: from then on every change
		// must be reported.
		let touches = 0;
		let lastTouch = 0;
		await waitFor(
			'the polling trigger to report a change of the sentinel contact',
			async () => {
				if (Date.now() - lastTouch > 10_000) {
					await instance.control.updateContact(sentinel.id, { notes: `sentinel ${++touches}` });
					lastTouch = Date.now();
				}
				collected.push(...(await watcher.newItems()));
				return (
					collected.some(
						(item) => recordId(item) === sentinel.id && item.event === 'contact.updated',
					) || undefined
				);
			},
			{ timeoutMs: 4 * MINUTE, intervalMs: 2000 },
		);

		const inspections = await globex().all<Inspection>('/v1/inspections');
		const toCancel = inspections.find(
			(i) => i.status === 'confirmed' && ![toReschedule, toPublish].includes(i.id),
		)?.id;
		if (!toCancel) throw new Error('The Globex seed has no confirmed inspection');
		const newTime = new Date(Date.now() + 7 * 24 * 60 * MINUTE)
			.toISOString()
			.replace(/:\d{2}\.\d{3}Z$/, ':00.000Z');

		const created = await instance.control.createContact('globex', {
			first_name: 'Polled',
			last_name: 'Newcomer',
			email: 'polled.newcomer@example.com',
		});
		await instance.control.updateContact(edited.id, { city: 'Aurora' });
		await instance.control.confirmInspection(toConfirm);
		await instance.control.rescheduleInspection(toReschedule, newTime);
		await instance.control.cancelInspection(toCancel);
		await instance.control.publishReports(toPublish);
		const tag = await instance.control.createTag('globex', `E2E tag ${randomUUID().slice(0, 8)}`);
		await instance.control.updateContact(tagged.id, { tag_ids: [tag.id] });
		await instance.control.updateContact(stale.id, { tag_ids: [tag.id] });
		const movedTo = new Date(Date.parse(newTime) + 2 * 60 * MINUTE).toISOString();
		await instance.control.updateEvent(moved.id, { start_at: movedTo });
		const appointment = await instance.control.createEvent({
			inspection_id: toReschedule,
			name: 'Key pick-up',
			start_at: newTime,
		});
		const expected = [
			['contact.created', created.id],
			['contact.updated', edited.id],
			['contact.tag_added', tagged.id],
			['contact.updated', stale.id],
			['inspection.confirmed', toConfirm],
			['inspection.rescheduled', toReschedule],
			['inspection.canceled', toCancel],
			['inspection.published', toPublish],
			['inspection_event.updated', moved.id],
			['inspection_event.created', appointment.id],
		];

		const afterChanges: Json[] = [];
		await waitFor(
			'the polling trigger to report the ten changes',
			async () => {
				afterChanges.push(...(await watcher.newItems()));
				return (
					expected.every(([event, id]) =>
						afterChanges.some((item) => item.event === event && recordId(item) === id),
					) || undefined
				);
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
		);
		const reported = afterChanges
			.filter((item) => recordId(item) !== sentinel.id)
			.map((item) => [item.event, recordId(item)]);
		expect(reported.sort()).toEqual(expected.sort());
		const rescheduled = afterChanges.find((item) => recordId(item) === toReschedule)!;
		expect(rescheduled.record).toMatchObject({ scheduled_for: newTime });
		expect((rescheduled.changes as Json).scheduled_for).toMatchObject({ after: newTime });
		const tagItem = afterChanges.find((item) => recordId(item) === tagged.id)!;
		expect(tagItem.events).toEqual(['contact.updated', 'contact.tag_added']);
		expect((tagItem.changes as Json).tags).toMatchObject({
			added: [{ id: tag.id, name: tag.name }],
			removed: [],
		});
		// Let go after its 90 days: seen for the first time, nothing to compare with.
		expect(afterChanges.find((item) => recordId(item) === stale.id)).toMatchObject({
			events: ['contact.updated'],
			previous: null,
			changes: null,
		});
		expect(afterChanges.find((item) => recordId(item) === moved.id)!.changes).toMatchObject({
			start_at: {
				before: moved.start_at,
				after: movedTo,
			},
		});
		expect(afterChanges.find((item) => recordId(item) === appointment.id)).toMatchObject({
			record: { inspection_id: toReschedule, name: 'Key pick-up' },
			changes: { name: { before: null, after: 'Key pick-up' } },
		});
		expect(afterChanges.find((item) => recordId(item) === edited.id)!.record).toMatchObject({
			city: 'Aurora',
		});
	});
});

/** Sandbox-clock times of the polling trigger's contact list requests (one per poll) after `from`. */
async function globexContactPolls(from: number): Promise<number> {
	const log = await instance.control.requests({ method: 'GET', pathPrefix: '/v1/contacts' });
	return log.data.filter(
		(entry) =>
			entry.key === SANDBOX_KEYS.globex &&
			entry.query.updated_since !== undefined &&
			Date.parse(entry.time) > from,
	).length;
}

describe('polling trigger and records it cannot read', () => {
	afterAll(async () => await instance.control.clearRawRecords());

	it('reports each unreadable record once, among the changes of the same poll and the polls after it, which all succeed', async () => {
		const watcher = await ExecutionWatcher.start(instance.rest, POLL_TRIGGER.id, POLL_TRIGGER.node);
		// The first test changes the first two contacts, one between, and records of its own; these are others.
		const contacts = await globex().all<Json & { id: string }>('/v1/contacts');
		const [samePoll, later] = contacts.slice(-2);
		const [inspection] = await globex().all<Inspection>('/v1/inspections');
		const now = (await instance.control.getClock()).now;
		const badTime = 'b0b0b0b0-0000-4000-8000-00000000e2e1';
		const tooDeep = 'b0b0b0b0-0000-4000-8000-00000000e2e2';
		const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
		// As a faulty API might serve them, on the first page of Globex's lists, among the records.
		await instance.control.addRawRecord('globex', 'contacts', 'null');
		await instance.control.addRawRecord(
			'globex',
			'contacts',
			JSON.stringify({ email: 'no.id@example.com', updated_at: now }),
		);
		await instance.control.addRawRecord(
			'globex',
			'inspections',
			JSON.stringify({ id: badTime, status: 'confirmed', updated_at: 'last Tuesday' }),
		);
		await instance.control.addRawRecord(
			'globex',
			'inspections',
			`{"id":"${tooDeep}","updated_at":"${now}","notes":${deep}}`,
		);
		// Text cut in the middle of an emoji: valid JSON, and it once failed every poll.
		const appointment = await instance.control.createEvent({
			inspection_id: inspection.id,
			name: 'Pick-up \ud83d',
		});
		await instance.control.updateContact(samePoll.id, { city: 'Same poll' });

		const items: Json[] = [];
		const unreadable = () => items.filter((item) => typeof item.problem === 'string');
		const has = (event: string, id: string) =>
			items.some((item) => item.event === event && recordId(item) === id);
		await waitFor(
			'the unreadable records and the changes beside them to be reported',
			async () => {
				items.push(...(await watcher.newItems()));
				return (
					(unreadable().length >= 4 &&
						has('inspection_event.created', appointment.id) &&
						has('contact.updated', samePoll.id)) ||
					undefined
				);
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
		);
		// The next poll lists the same raw records again (its overlap reaches them).
		const reportedAt = Date.parse((await instance.control.getClock()).now);
		await waitFor(
			'one more poll',
			async () => (await globexContactPolls(reportedAt)) >= 1 || undefined,
			{
				timeoutMs: 2 * MINUTE,
				intervalMs: 2000,
			},
		);
		await instance.control.updateContact(later.id, { city: 'Two polls later' });
		await waitFor(
			'the change two polls later to be reported',
			async () => {
				items.push(...(await watcher.newItems()));
				return has('contact.updated', later.id) || undefined;
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
		);

		expect(
			unreadable()
				.map(
					(item) =>
						`${String(item.event)} ${JSON.stringify((item.record as Json | null)?.id ?? null)}`,
				)
				.sort(),
		).toEqual(
			[
				'contact.unreadable null',
				'contact.unreadable null',
				`inspection.unreadable "${badTime}"`,
				`inspection.unreadable "${tooDeep}"`,
			].sort(),
		);
		const problems = unreadable().map((item) => String(item.problem));
		for (const said of [/null/, /no id/, /updated_at is not a time/, /deeper than 64/])
			expect(problems.filter((problem) => said.test(problem))).toHaveLength(1);
		expect(unreadable().find((item) => item.record === null)).toBeDefined();
		expect(
			unreadable().find((item) => (item.record as Json | null)?.email === 'no.id@example.com'),
		).toBeDefined();
		// Every ordinary change exactly once, the appointment with its name as written.
		// (The first test's sentinel contact may still show a late version of its own.)
		const ordinary = items
			.filter((item) => typeof item.problem !== 'string' && recordId(item) !== contacts[0].id)
			.map((item) => `${String(item.event)} ${String(recordId(item))}`);
		expect(ordinary.sort()).toEqual(
			[
				`inspection_event.created ${appointment.id}`,
				`contact.updated ${samePoll.id}`,
				`contact.updated ${later.id}`,
			].sort(),
		);
		expect(items.find((item) => recordId(item) === appointment.id)!.record).toMatchObject({
			name: 'Pick-up \ud83d',
		});
	});
});

describe('webhook trigger', () => {
	const post = (body: string, headers: Record<string, string>) =>
		fetch(webhookUrl(instance.url), {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body,
			signal: AbortSignal.timeout(30_000),
		});
	const sign = (body: string) =>
		createHmac('sha256', WEBHOOK_TRIGGER.secret).update(body).digest('hex');

	it('starts an execution for each sandbox webhook, with the event, the id and the re-fetched record', async () => {
		const watcher = await ExecutionWatcher.start(
			instance.rest,
			WEBHOOK_TRIGGER.id,
			WEBHOOK_TRIGGER.node,
		);
		const receiver = await instance.control.addWebhook({
			org: 'globex',
			url: webhookUrl(instance.url),
			secret: WEBHOOK_TRIGGER.secret,
			secret_header: WEBHOOK_TRIGGER.secretHeader,
			hmac_header: WEBHOOK_TRIGGER.signatureHeader,
		});
		try {
			const inspection = (await globex().all<Inspection>('/v1/inspections')).find(
				(i) => i.status === 'waiting' || i.status === 'review',
			);
			const [contact] = await globex().all<Json & { id: string }>('/v1/contacts');
			if (!inspection) throw new Error('The Globex seed has no inspection waiting or in review');
			await instance.control.confirmInspection(inspection.id);
			await instance.control.updateContact(contact.id, { notes: 'changed for the webhook test' });

			const items: Json[] = [];
			await waitFor(
				'two webhook executions',
				async () => {
					items.push(...(await watcher.newItems()));
					return items.length >= 2 || undefined;
				},
				{ timeoutMs: MINUTE, intervalMs: 500 },
			);
			expect(items.map((item) => [item.event, item.id]).sort()).toEqual(
				[
					['contact.changed', contact.id],
					['inspection.confirmed', inspection.id],
				].sort(),
			);
			expect(items.find((item) => item.id === inspection.id)?.record).toMatchObject({
				id: inspection.id,
				status: 'confirmed',
			});
			expect(items.find((item) => item.id === contact.id)?.record).toMatchObject({
				id: contact.id,
				notes: 'changed for the webhook test',
			});
			const deliveries = (await instance.control.deliveries()).data.filter(
				(attempt) => attempt.receiver_id === receiver.id,
			);
			expect(deliveries.map((attempt) => attempt.status)).toEqual([200, 200]);
		} finally {
			await instance.control.removeWebhook(receiver.id);
		}
	});

	it('answers 401 and starts nothing when the secret or the signature is wrong', async () => {
		const watcher = await ExecutionWatcher.start(
			instance.rest,
			WEBHOOK_TRIGGER.id,
			WEBHOOK_TRIGGER.node,
		);
		const before = await watcher.count();
		const body = JSON.stringify({
			event: 'inspection.confirmed',
			data: { id: '00000000-0000-4000-8000-000000000000' },
		});
		const refused = [
			await post(body, {
				[WEBHOOK_TRIGGER.secretHeader]: 'not-the-secret',
				[WEBHOOK_TRIGGER.signatureHeader]: sign(body),
			}),
			await post(body, { [WEBHOOK_TRIGGER.signatureHeader]: sign(body) }),
			await post(body, {
				[WEBHOOK_TRIGGER.secretHeader]: WEBHOOK_TRIGGER.secret,
				[WEBHOOK_TRIGGER.signatureHeader]: sign(`${body} `),
			}),
		];
		expect(refused.map((response) => response.status)).toEqual([401, 401, 401]);
		// The right secret and signature are accepted (so the 401s above are the check, not a dead URL).
		const accepted = await post(body, {
			[WEBHOOK_TRIGGER.secretHeader]: WEBHOOK_TRIGGER.secret,
			[WEBHOOK_TRIGGER.signatureHeader]: sign(body),
		});
		expect(accepted.status).toBe(200);
		await waitFor(
			'the accepted request to be executed',
			async () => (await watcher.count()) > before || undefined,
			{ timeoutMs: 30_000 },
		);
		expect(await watcher.count()).toBe(before + 1);
	});
});

describe('webhook trigger v2, secret in a credential', () => {
	const post = async (body: string, secret: string = REPLAY_TRIGGER.secret) => {
		const response = await fetch(replayTriggerUrl(instance.url), {
			method: 'POST',
			headers: { 'content-type': 'application/json', [REPLAY_TRIGGER.secretHeader]: secret },
			body,
			signal: AbortSignal.timeout(30_000),
		});
		return { status: response.status, body: (await response.text()).trim() };
	};
	const delivery = (id: string) =>
		JSON.stringify({
			id,
			event: 'inspection.confirmed',
			occurred_at: new Date().toISOString(),
			data: { id: randomUUID() },
		});

	it('starts one execution per delivery (X once, then Y 3 times), and saves both ids in the static data', async () => {
		const watcher = await ExecutionWatcher.start(
			instance.rest,
			REPLAY_TRIGGER.id,
			REPLAY_TRIGGER.node,
		);
		const before = await watcher.count();
		const first = randomUUID();
		const repeated = randomUUID();

		expect((await post(delivery(first), 'not-the-secret')).status).toBe(401);
		const answers = [await post(delivery(first))];
		// One after the other, X before Y: each delivery's memory must be saved, not only a
		// workflow's first (n8n 2.41 lost every later save of a node that let n8n answer).
		for (let i = 0; i < 3; i++) answers.push(await post(delivery(repeated)));
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
		expect(JSON.parse(answers[1].body)).toEqual({ received: true });
		for (const answer of answers.slice(2))
			expect(JSON.parse(answer.body)).toEqual({
				received: true,
				ignored: `delivery ${repeated} was already received`,
			});

		const items: Json[] = [];
		await waitFor(
			'the executions of the two deliveries',
			async () => {
				items.push(...(await watcher.newItems()));
				return items.length >= 2 || undefined;
			},
			{ timeoutMs: MINUTE, intervalMs: 500 },
		);
		expect(items.map((item) => item.deliveryId).sort()).toEqual([first, repeated].sort());
		expect(await watcher.count()).toBe(before + 2);

		// The memory outlives the process only through n8n's database: both ids must be there.
		const { userFolder } = instance;
		const database = new N8nDatabase(userFolder.runtime, userFolder.folder);
		const saved = await waitFor(
			"both delivery ids in the workflow's saved static data",
			async () => {
				const ids = rememberedIds(await database.staticData(REPLAY_TRIGGER.id));
				return ids.includes(first) && ids.includes(repeated) ? ids : undefined;
			},
			{ timeoutMs: 30_000, intervalMs: 500 },
		);
		expect(saved).toEqual(expect.arrayContaining([first, repeated]));
	});
});

/** The delivery ids a workflow's static data holds, from every node's memory. */
function rememberedIds(staticData: Record<string, unknown> | null): string[] {
	return Object.values(staticData ?? {}).flatMap((nodeData) => {
		const deliveries = (nodeData as { deliveries?: unknown } | null)?.deliveries;
		return Array.isArray(deliveries) ? deliveries.map((entry) => String(entry[0])) : [];
	});
}
