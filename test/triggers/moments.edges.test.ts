/**
 * The time-based moments (Starting, Ended) at their edges, with a fake clock:
 * due on the very millisecond, not one before; a short inspection learned
 * late; a lookup of more inspections than one `ids=` call takes; ids with
 * letters; an inspection gone for good. Also an inspector assigned with no
 * other moment. The moments' main paths are in moments.test.ts.
 */
import { LIMITS } from '../../nodes/shared/endpoints';
import { HOUR, lookups, MomentsApi, poller } from './moments-api';

const MINUTE = 60_000;
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

test('a short inspection learned late is reminded until an hour after its start, not after', async () => {
	const api = new MomentsApi();
	const poll = poller(api, ['inspection.starting'], { startingHours: 24 });
	await poll();
	const book = (startIn: number) =>
		api.createInspection({
			scheduled_for: new Date(api.now + startIn).toISOString(),
			ends_at: new Date(api.now + startIn + 30 * MINUTE).toISOString(),
		});
	// Both seen first 45 minutes after their start, past their 30-minute end.
	const withinTheHour = book(-45 * MINUTE);
	expect(idsOf(await poll())).toEqual([withinTheHour.id]);
	const pastTheHour = book(-61 * MINUTE);
	expect(idsOf(await poll())).toEqual([]);
	expect(pastTheHour.id).toBeDefined();
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
