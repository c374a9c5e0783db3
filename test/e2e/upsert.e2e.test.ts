/**
 * Contact Create or Update, Download Photo and Download Cover Photo in a real
 * n8n (`n8n execute`), against the sandbox: actions per item, the matching
 * plan's requests in the sandbox log, a second run that updates instead of
 * creating (retry safety), and the files in binary, fetched without the key.
 */
import { SANDBOX_KEYS } from '../../sandbox/index';
import type { ExecutionOutput, N8nUserFolder } from '../../scripts/n8n-instance';
import { nodeItems } from '../../scripts/n8n-instance';
import { UPSERT_EMAIL, UPSERT_ID } from './workflows/upsert';
import { useN8n } from './support/instance';

type Json = Record<string, unknown>;

const instance = useN8n('upsert', { template: 'suite', server: false });

let n8n: N8nUserFolder;
let first: ExecutionOutput;
let second: ExecutionOutput;
/** The workflow's reads of /v1/contacts during each run (the tests' own reads use another key). */
const contactReads: Array<Array<{ query: Record<string, string | string[]> }>> = [];

const readsOfRun = async () =>
	(await instance.control.requests({ method: 'GET', pathPrefix: '/v1/contacts' })).data.filter(
		(entry) => entry.key !== SANDBOX_KEYS.acmeStaff,
	);
const json = (output: ExecutionOutput, node: string): Json[] =>
	nodeItems(output, node).map((item) => item.json);

beforeAll(async () => {
	await instance.control.reset();
	n8n = instance.userFolder;
	for (const run of [0, 1]) {
		await instance.control.clearRequests();
		const output = await n8n.execute(UPSERT_ID);
		if (run === 0) first = output;
		else second = output;
		contactReads.push(await readsOfRun());
	}
}, 10 * 60_000);

it('creates the new email once, updates the matched contact, and marks each item', async () => {
	const items = json(first, 'Create or update');
	const existing = json(first, 'Some contacts')[0];
	expect(items.map((item) => item.action)).toEqual(['created', 'updated', 'updated']);
	expect(items[0]).toMatchObject({ email: UPSERT_EMAIL, first_name: 'First', city: 'Lakewood' });
	expect(items[1]).toMatchObject({ id: existing.id, email: existing.email, first_name: 'Matched' });
	// The third item's email is the first's in upper case: it updates what the first created.
	expect(items[2]).toMatchObject({ id: items[0].id, first_name: 'Second' });
	const stored = await instance.api.get<{ data: Json[] }>('/v1/contacts', { email: UPSERT_EMAIL });
	expect(stored.data.map((contact) => contact.id)).toEqual([items[0].id]);
});

it('matches 2 unique emails with a count and 2 lookups (cheaper than a 3-page walk)', () => {
	const [reads] = contactReads;
	const upsertReads = reads.filter(
		(entry) => entry.query.email !== undefined || entry.query.limit === '1',
	);
	expect(upsertReads.map((entry) => entry.query.email ?? 'count')).toEqual([
		'count',
		UPSERT_EMAIL,
		expect.stringMatching(/@/),
	]);
});

it('a second run of the same workflow updates the contacts and creates none (retry-safe)', async () => {
	const items = json(second, 'Create or update');
	const created = json(first, 'Create or update');
	expect(items.map((item) => item.action)).toEqual(['updated', 'updated', 'updated']);
	expect(items.map((item) => item.id)).toEqual(created.map((item) => item.id));
	const stored = await instance.api.get<{ data: Json[] }>('/v1/contacts', { email: UPSERT_EMAIL });
	expect(stored.data).toHaveLength(1);
});

it("downloads a contact's photo and an inspection's cover photo into binary, without the key", async () => {
	for (const [node, property, field] of [
		['Download photo', 'photo', 'photo_url'],
		['Download cover photo', 'cover', 'cover_photo_url'],
	] as const) {
		const [item] = nodeItems(first, node);
		const binary = item.binary?.[property];
		expect(binary?.mimeType).toMatch(/^image\//);
		const reference = Buffer.from(await (await fetch(String(item.json[field]))).arrayBuffer());
		expect(n8n.readBinary(binary!).equals(reference)).toBe(true);
	}
	const files = (await instance.control.requests({ pathPrefix: '/files/' })).data;
	expect(files.length).toBeGreaterThan(0);
	expect(files.every((entry) => entry.key === null)).toBe(true);
});
