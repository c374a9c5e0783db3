/**
 * The polling trigger through n8n-core's PollContext against the sandbox when
 * the server's clock moves (the sandbox clock, through the control API; the
 * sandbox's Date header reads it): a change dated 3 h ahead, and the clock
 * set back 3 h.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { InspectionBusinessTrigger } from '../../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { runPoll, withSandbox } from '../helpers/n8n';

const sandbox = withSandbox({}, { reset: true });
const trigger = new InspectionBusinessTrigger();
const HOUR = 3_600_000;

async function poll(staticData: IDataObject) {
	const result = await runPoll({
		node: trigger,
		parameters: { events: ['contact.created', 'contact.updated'], options: {} },
		credentials: sandbox.credentials(),
		staticData,
	});
	if (result.error) throw result.error;
	return result.items.map((item: INodeExecutionData) => {
		const record = item.json.record as IDataObject;
		return [item.json.event, record.id, record.updated_at];
	});
}

const newContact = async (name: string) =>
	(await sandbox.control.createContact('acme', {
		first_name: name,
		email: `${name.toLowerCase()}@example.com`,
	})) as IDataObject;

/** Sets the sandbox clock this far from real time (the control API's clock only goes forward by advance). */
const setClockOffset = async (ms: number) =>
	await sandbox.control.setClock(new Date(Date.now() + ms).toISOString());

afterEach(async () => await setClockOffset(0));

/**
 * Waits into the next whole second: a baseline reports the versions dated after its first answer's
 * Date header, which counts whole seconds, so a change made in that same second may be reported.
 */
const nextSecond = async () =>
	await new Promise((resolve) => setTimeout(resolve, 1_001 - (Date.now() % 1_000)));

test('a contact changed while the server clock ran 3 h ahead is emitted once and hides none of the changes after it', async () => {
	const ada = await newContact('Ada');
	await nextSecond();
	const staticData: IDataObject = {};
	expect(await poll(staticData)).toEqual([]);

	await setClockOffset(3 * HOUR);
	const ahead = (await sandbox.control.updateContact(String(ada.id), {
		notes: 'dated ahead',
	})) as IDataObject;
	await setClockOffset(0);
	expect(await poll(staticData)).toEqual([['contact.updated', ada.id, ahead.updated_at]]);

	const grace = await newContact('Grace');
	expect(await poll(staticData)).toEqual([['contact.created', grace.id, grace.updated_at]]);
	expect(await poll(staticData)).toEqual([]);
});

// The sandbox keeps updated_at growing per record, so the set-back clock shows on a new contact; a
// version of one record dated before the one seen is covered in poll.clocks.ts.
test('after the server clock is set back 3 h, the contacts it dates are emitted in the next poll', async () => {
	const staticData: IDataObject = {};
	expect(await poll(staticData)).toEqual([]);
	const ada = await newContact('Ada');
	expect(await poll(staticData)).toEqual([['contact.created', ada.id, ada.updated_at]]);

	await setClockOffset(-3 * HOUR);
	const grace = await newContact('Grace');
	expect(Date.parse(String(grace.updated_at))).toBeLessThan(Date.parse(String(ada.updated_at)));
	expect(await poll(staticData)).toEqual([['contact.created', grace.id, grace.updated_at]]);
	expect(await poll(staticData)).toEqual([]);
});
