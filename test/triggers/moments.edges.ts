/**
 * The time-based moments (Starting, Ended) at their edges, with a fake clock:
 * due on the very millisecond, not one before; a short inspection learned
 * late, up to the hour after its start; an Ended due on the millisecond the
 * trigger began watching it; Starting selected first when an Ended is due; a
 * lookup that answers an older version, or a change under the updated_at
 * already seen; a lookup of more inspections than one `ids=` call takes; ids
 * with letters; an inspection gone for good. Also an inspector assigned with
 * no other moment. The moments' main paths are in moments.ts.
 */
import { LIMITS } from '../../nodes/shared/endpoints';
import { HOUR, lookups, MomentsApi, poller } from './moments-api';
import { STARTING_GRACE_MS } from '../../nodes/InspectionBusinessTrigger/judge';

export function momentEdges(): void {
	const MINUTE = 60_000;
	const iso = (ms: number) => new Date(ms).toISOString();
	const idsOf = (items: Array<{ record?: unknown }>) =>
		items.map((item) => (item.record as { id: string }).id);

	test.each([
		['starting, on its time', 'inspection.starting', 0, 1],
		['starting, a millisecond before', 'inspection.starting', -1, 0],
		['ended, on its time', 'inspection.ended', 0, 1],
		['ended, a millisecond before', 'inspection.ended', -1, 0],
	] as const)('%s: %s item(s)', async (_case, event, offset, count) => {
		const api = new MomentsApi();
		const inspection = api.createInspection();
		const poll = poller(api, [event], { startingHours: 24, endedHours: 2 });
		await poll();
		const at =
			event === 'inspection.starting'
				? Date.parse(String(inspection.scheduled_for)) - 24 * HOUR
				: Date.parse(String(inspection.ends_at)) + 2 * HOUR;
		api.now = at + offset;
		expect(await poll()).toHaveLength(count);
	});

	// No reminder once the inspection has begun: the 15 minutes after its start are for a poll that runs late.
	test.each([
		['14 minutes after its start', 1, 14 * MINUTE],
		['a millisecond before 15 minutes after its start', 1, STARTING_GRACE_MS - 1],
		['15 minutes after its start', 0, STARTING_GRACE_MS],
		['45 minutes after its start', 0, 45 * MINUTE],
	])('a 30-minute inspection learned late, %s: %s reminder(s)', async (_case, count, seenAfter) => {
		const api = new MomentsApi();
		const poll = poller(api, ['inspection.starting'], { startingHours: 24 });
		await poll();
		// Booked and first seen past its 30-minute end (booking moves the clock on by a second).
		const start = api.now + 1000 - seenAfter;
		api.createInspection({ scheduled_for: iso(start), ends_at: iso(start + 30 * MINUTE) });
		expect(api.now).toBe(start + seenAfter);
		expect(await poll()).toHaveLength(count);
	});

	test.each([
		['on the very millisecond', 0, 0],
		['a millisecond after', 1, 1],
	])(
		'ended due %s the trigger began watching Ended: %s item(s)',
		async (_case, count, afterWatching) => {
			const api = new MomentsApi();
			const inspection = api.createInspection();
			const at = Date.parse(String(inspection.ends_at)) + 2 * HOUR;
			api.now = at - afterWatching;
			const poll = poller(api, ['inspection.ended'], { endedHours: 2 });
			const first = await poll();
			api.now = at + HOUR;
			expect([...first, ...(await poll())]).toHaveLength(count);
		},
	);

	test('Starting selected first at the poll an Ended comes due: the Ended is still reported', async () => {
		const api = new MomentsApi();
		const inspection = api.createInspection();
		const poll = poller(api, ['inspection.ended'], { startingHours: 24, endedHours: 1 });
		await poll();
		api.now = Date.parse(String(inspection.ends_at)) + 2 * HOUR;
		const items = await poll({ events: ['inspection.ended', 'inspection.starting'] });
		expect(items.map((item) => [item.event, idsOf([item])[0]])).toEqual([
			['inspection.ended', inspection.id],
		]);
	});

	test('a lookup that answers with an older version than the one seen keeps the newer: the reminder comes', async () => {
		const api = new MomentsApi();
		const inspection = api.createInspection(); // starts in 72 hours
		const poll = poller(api, ['inspection.starting'], { startingHours: 24 });
		await poll();
		const older = structuredClone(inspection);
		api.now += 10 * MINUTE; // the lists' window moves past the version before
		const start = api.now + 30 * HOUR;
		api.change('inspections', String(inspection.id), (r) => {
			r.scheduled_for = iso(start);
			r.ends_at = iso(start + 3 * HOUR);
		});
		expect(await poll()).toEqual([]);
		// The lookup is served the version before the move (a replica behind), dated before the one seen.
		Object.assign(inspection, older);
		api.now = start - 24 * HOUR;
		const items = await poll();
		expect(lookups(api)).toHaveLength(1);
		expect(items.map((item) => item.event)).toEqual(['inspection.starting']);
	});

	test('a change the lookup shows under the updated_at already seen is judged: canceled, no reminder', async () => {
		const api = new MomentsApi();
		const inspection = api.createInspection(); // starts in 72 hours
		const poll = poller(api, ['inspection.starting'], { startingHours: 24 });
		await poll();
		api.now += 10 * MINUTE;
		api.createInspection(); // moves the lists' window past the first one
		expect(await poll()).toEqual([]);
		// Canceled without a new updated_at: only the lookup shows it.
		inspection.status = 'canceled';
		api.now = Date.parse(String(inspection.scheduled_for)) - 24 * HOUR;
		const items = await poll();
		expect(lookups(api).map((r) => r.query.ids)).toEqual([inspection.id]);
		expect(items).toEqual([]);
	});

	test('due moments of more inspections than one lookup takes: ⌈M/200⌉ lookups, each one reported once', async () => {
		const api = new MomentsApi();
		const count = LIMITS.idsMax + 1;
		const ids = Array.from({ length: count }, () => String(api.createInspection().id));
		const poll = poller(api, ['inspection.ended'], { endedHours: 1 });
		await poll();
		api.now += 100 * HOUR;
		const items = await poll();
		expect(new Set(idsOf(items))).toEqual(new Set(ids));
		expect(items).toHaveLength(count);
		const asked = lookups(api).map((r) => String(r.query.ids).split(','));
		expect(asked.map((batch) => batch.length)).toEqual([LIMITS.idsMax, 1]);
		expect(await poll()).toEqual([]);
	});

	test('ids with letters are looked up as listed and matched to their moment', async () => {
		const api = new MomentsApi();
		const inspection = api.createInspection({ id: 'abcdef01-0000-4000-8000-00000000beef' });
		const poll = poller(api, ['inspection.ended'], { endedHours: 1 });
		await poll();
		api.now = Date.parse(String(inspection.ends_at)) + 2 * HOUR;
		expect(idsOf(await poll())).toEqual([inspection.id]);
		expect(lookups(api).map((r) => r.query.ids)).toEqual([inspection.id]);
	});

	test('an inspection gone for good reports nothing and is not looked up again', async () => {
		const api = new MomentsApi();
		const inspection = api.createInspection();
		const poll = poller(api, ['inspection.ended'], { endedHours: 1 });
		await poll();
		api.remove('inspections', String(inspection.id));
		api.now = Date.parse(String(inspection.ends_at)) + 2 * HOUR;
		expect(await poll()).toEqual([]);
		expect(lookups(api)).toHaveLength(1);
		api.now += HOUR;
		expect(await poll()).toEqual([]);
		expect(api.requests).toHaveLength(1);
	});

	test('an inspector assigned and nothing else: one item per inspector, no item without an event', async () => {
		const api = new MomentsApi();
		const { id } = api.createInspection();
		const poll = poller(api, ['inspection.inspector_assigned', 'inspection.paid']);
		await poll();
		api.change('inspections', String(id), (r) => {
			r.inspectors = [...(r.inspectors as object[]), { id: 'insp-2', name: 'Sam Chen' }];
		});
		const items = await poll();
		expect(items.map((item) => [item.event, item.events])).toEqual([
			['inspection.inspector_assigned', ['inspection.inspector_assigned']],
		]);
	});
}
