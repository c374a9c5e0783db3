/**
 * Raw records: text the control API hands in, served as it is inside a list's
 * `data`, to show what the polling trigger does with a record it cannot read
 * (`null`, a record without an id, an updated_at that is not a time, JSON
 * nested thousands of levels deep). The API never sends such records on
 * purpose; a faulty one might. Each is served on the first page (no cursor) of
 * its list for its organization, to every window that reaches back to when it
 * was added (updated_since at or before that moment, or none), after the
 * records the list has. Kept per store, so a reset forgets them.
 */
import type { EndpointKey } from '../nodes/shared/endpoints';
import { parseTimestamp } from '../nodes/shared/rules/formats';
import type { ControlRoute } from './control-route';
import { badRequest, ok, type Reply } from './http';
import { isOrgId, type OrgId } from './keys';
import type { SandboxState } from './state';
import type { Store } from './store';

const LISTS = {
	contacts: 'listContacts',
	inspections: 'listInspections',
	events: 'listEvents',
	attachments: 'listAttachments',
} as const satisfies Record<string, EndpointKey>;
type ListName = keyof typeof LISTS;

interface RawRecord {
	org: OrgId;
	list: ListName;
	/** The JSON text, spliced into the answer as it is. */
	json: string;
	/** Sandbox time when it was added: the windows that reach it list it. */
	addedAt: number;
}

const rawRecords = new WeakMap<Store, RawRecord[]>();

function add(state: SandboxState, body: Record<string, unknown>): Reply {
	const { org, list, json } = body;
	if (!isOrgId(org)) throw badRequest('org', 'org must be a sandbox organization');
	if (typeof list !== 'string' || !(list in LISTS))
		throw badRequest('list', `list must be one of ${Object.keys(LISTS).join(', ')}`);
	if (typeof json !== 'string') throw badRequest('json', 'json must be the record as JSON text');
	try {
		JSON.parse(json);
	} catch {
		throw badRequest('json', 'json is not valid JSON');
	}
	const records = rawRecords.get(state.store) ?? [];
	rawRecords.set(state.store, records);
	const record = { org, list: list as ListName, json, addedAt: state.clock.now() };
	records.push(record);
	return ok(
		{ org, list, added_at: new Date(record.addedAt).toISOString(), count: records.length },
		201,
	);
}

export const RAW_RECORD_ROUTES: ControlRoute[] = [
	['POST', /^raw-records$/, ({ state, body }) => add(state, body)],
	[
		'DELETE',
		/^raw-records$/,
		({ state }) => {
			rawRecords.delete(state.store);
			return ok({ count: 0 });
		},
	],
];

/** A list answer with the raw records that belong on it spliced into its `data`, else the answer as it was. */
export function withRawRecords(
	state: SandboxState,
	endpoint: EndpointKey,
	org: OrgId,
	search: URLSearchParams,
	reply: Reply,
): Reply {
	const records = rawRecords.get(state.store);
	if (!records || reply.status !== 200 || search.has('cursor')) return reply;
	const since = search.has('updated_since')
		? parseTimestamp(search.get('updated_since') ?? '')
		: null;
	const served = records.filter(
		(r) => r.org === org && LISTS[r.list] === endpoint && (since === null || since <= r.addedAt),
	);
	if (served.length === 0) return reply;
	const body = reply.body as { data: unknown[] };
	const text = JSON.stringify(body);
	const at = text.indexOf('"data":[') + '"data":['.length;
	const extra = served.map((r) => r.json).join(',') + (body.data.length > 0 ? ',' : '');
	const data = Buffer.from(text.slice(0, at) + extra + text.slice(at));
	return { ...reply, raw: { data, contentType: 'application/json; charset=utf-8' } };
}
