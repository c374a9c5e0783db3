/**
 * One rule book: every input rule's good and bad values go through the node's
 * check (the transport's validation, which runs before anything is sent) and
 * through the sandbox's real HTTP answer, and the two must agree: the node
 * refuses exactly what the sandbox answers 400 (413 for a size) to, and what
 * the node accepts, sent as the node would send it, the sandbox accepts.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import type { EndpointKey } from '../nodes/shared/endpoints';
import { validateUploadFile } from '../nodes/shared/transport/upload';
import { validateBody, validateQuery } from '../nodes/shared/validation';
import { type Answer, file, type Json, useSandbox } from './sandbox/support';

const sandbox = useSandbox();
const node: INode = {
	id: 'rules',
	name: 'Inspection Business',
	type: 'inspectionBusiness',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const UUID = '7d4c2a8e-59a1-4b7e-9d1f-2f3e4a5b6c7d';
const MB = 1024 * 1024;
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
const uuids = (n: number) =>
	Array.from({ length: n }, (_, i) => `7d4c2a8e-59a1-4b7e-9d1f-${String(i).padStart(12, '0')}`);
const emails = (n: number) => Array.from({ length: n }, (_, i) => `c${i}@example.com`).join(', ');

type Expected = 'accepts' | 'refuses';
type NodeVerdict = { verdict: Expected; sent?: unknown };

const nodeCheck = (check: () => unknown): NodeVerdict => {
	try {
		return { verdict: 'accepts', sent: check() };
	} catch (error) {
		expect((error as Error).message).toMatch(/^Invalid value for /);
		return { verdict: 'refuses' };
	}
};
const sandboxVerdict = (answer: Answer): Expected => {
	if (answer.status >= 200 && answer.status < 300) return 'accepts';
	if (answer.status === 400 || answer.status === 413) return 'refuses';
	throw new Error(`Unexpected ${answer.status}: ${JSON.stringify(answer.body)}`);
};

type QueryRow = [string, EndpointKey, IDataObject, Expected];
const QUERY_PATHS: Partial<Record<EndpointKey, string>> = {
	listContacts: '/v1/contacts',
	listContactStats: '/v1/contacts/stats',
	listInspections: '/v1/inspections',
	listEvents: '/v1/events',
	listAttachments: '/v1/attachments',
};
const QUERY_ROWS: QueryRow[] = [
	['a bare date', 'listContacts', { updated_since: '2024-05-01' }, 'accepts'],
	['a UTC date-time', 'listContacts', { updated_since: '2024-05-01T10:00:00Z' }, 'accepts'],
	['a date-time without a zone', 'listContacts', { updated_since: '2024-05-01T10:00' }, 'accepts'],
	[
		'an offset with a colon',
		'listContacts',
		{ updated_since: '2024-05-01T10:00:00.123+02:00' },
		'accepts',
	],
	[
		'an offset without a colon',
		'listContacts',
		{ updated_since: '2024-05-01T10:00:00-0500' },
		'accepts',
	],
	['a space instead of T', 'listContacts', { updated_since: '2024-05-01 10:00' }, 'refuses'],
	['an hour-only offset', 'listContacts', { updated_since: '2024-05-01T10:00+05' }, 'refuses'],
	['an impossible date', 'listContacts', { updated_since: '2024-02-30' }, 'refuses'],
	['an hour 25', 'listContacts', { updated_since: '2024-05-01T25:00Z' }, 'refuses'],
	['words', 'listContacts', { updated_since: 'yesterday' }, 'refuses'],
	['limit 1', 'listContacts', { limit: '1' }, 'accepts'],
	['limit 200', 'listContacts', { limit: 200 }, 'accepts'],
	['limit 0', 'listContacts', { limit: '0' }, 'refuses'],
	['limit 201', 'listContacts', { limit: '201' }, 'refuses'],
	['limit 2.5', 'listContacts', { limit: 2.5 }, 'refuses'],
	['a role group', 'listContacts', { role: 'agent' }, 'accepts'],
	['an exact role', 'listContacts', { role: 'Customer' }, 'accepts'],
	['a role in the wrong case', 'listContacts', { role: 'customer' }, 'refuses'],
	['a descending sort', 'listContacts', { sort: '-first_name' }, 'accepts'],
	['a field that is not sortable', 'listContacts', { sort: 'email' }, 'refuses'],
	['a tag id', 'listContacts', { tag_id: UUID }, 'accepts'],
	['a tag id that is no UUID', 'listContacts', { tag_id: 'vip' }, 'refuses'],
	['tag names', 'listContacts', { tag: ['VIP', 'Investor'] }, 'accepts'],
	['a blank tag name', 'listContacts', { tag: ['VIP', ' '] }, 'refuses'],
	['200 ids', 'listContacts', { ids: uuids(200).join(',') }, 'accepts'],
	['201 ids', 'listContacts', { ids: uuids(201).join(',') }, 'refuses'],
	['an id that is no UUID', 'listContacts', { ids: `${UUID},42` }, 'refuses'],
	['an unknown parameter', 'listContacts', { colour: 'red' }, 'refuses'],
	['a boolean', 'listInspections', { include_deleted: 'true' }, 'accepts'],
	['a boolean in capitals', 'listInspections', { include_deleted: 'TRUE' }, 'refuses'],
	['a boolean as yes', 'listInspections', { include_deleted: 'yes' }, 'refuses'],
	['an event filter id', 'listEvents', { inspection_id: 'x' }, 'refuses'],
	['an attachment kind', 'listAttachments', { kind: 'report' }, 'accepts'],
	['an unknown attachment kind', 'listAttachments', { kind: 'photo' }, 'refuses'],
	['from before to', 'listContactStats', { from: '2024-05-01', to: '2024-06-01' }, 'accepts'],
	['from equal to to', 'listContactStats', { from: '2024-05-01', to: '2024-05-01' }, 'accepts'],
	['from after to', 'listContactStats', { from: '2024-06-01', to: '2024-05-01' }, 'refuses'],
	[
		'from a moment after to',
		'listContactStats',
		{ from: '2024-05-01T00:00:01Z', to: '2024-05-01' },
		'refuses',
	],
	['201 contact ids', 'listContactStats', { contact_ids: uuids(201).join(',') }, 'refuses'],
];

const searchOf = (query: IDataObject): string => {
	const search = new URLSearchParams();
	for (const [name, value] of Object.entries(query)) {
		for (const entry of Array.isArray(value) ? value : [value]) search.append(name, String(entry));
	}
	return search.toString();
};

describe('query rules', () => {
	it.each(QUERY_ROWS)('%s (%s %j): both %s', async (_name, endpoint, query, expected) => {
		const atNode = nodeCheck(() => validateQuery(node, endpoint, query));
		const sent = atNode.verdict === 'accepts' ? (atNode.sent as IDataObject) : query;
		const answer = await sandbox.api().get(`${QUERY_PATHS[endpoint]}?${searchOf(sent)}`);
		expect({ node: atNode.verdict, sandbox: sandboxVerdict(answer) }).toEqual({
			node: expected,
			sandbox: expected,
		});
	});
});

type BodyRow = [string, 'createContact' | 'updateContact', IDataObject, Expected];
const A = { first_name: 'Rule', email: 'rule@example.com' };
const BODY_ROWS: BodyRow[] = [
	['the required fields', 'createContact', A, 'accepts'],
	['a missing email', 'createContact', { first_name: 'Rule' }, 'refuses'],
	['a first name of spaces', 'createContact', { ...A, first_name: '  ' }, 'refuses'],
	['an empty first name', 'createContact', { ...A, first_name: '' }, 'refuses'],
	['a null first name', 'createContact', { ...A, first_name: null }, 'refuses'],
	['a last name of spaces (nullable text)', 'createContact', { ...A, last_name: '  ' }, 'accepts'],
	['a null last name', 'createContact', { ...A, last_name: null }, 'accepts'],
	[
		'an email with spaces around it',
		'createContact',
		{ ...A, email: ' ann@example.com ' },
		'accepts',
	],
	['an email with a digit in the TLD', 'createContact', { ...A, email: 'a@b.c1' }, 'refuses'],
	['an email without a dot', 'createContact', { ...A, email: 'a@b' }, 'refuses'],
	['an email with a space', 'createContact', { ...A, email: 'a b@example.com' }, 'refuses'],
	['a country', 'createContact', { ...A, country: 'US' }, 'accepts'],
	['an unassigned country code', 'createContact', { ...A, country: 'XX' }, 'refuses'],
	['a country in lower case', 'createContact', { ...A, country: 'us' }, 'refuses'],
	['a three-letter country', 'createContact', { ...A, country: 'USA' }, 'refuses'],
	['a null country', 'createContact', { ...A, country: null }, 'accepts'],
	['a leap day', 'createContact', { ...A, birthday: '2000-02-29' }, 'accepts'],
	['no leap day', 'createContact', { ...A, birthday: '2001-02-29' }, 'refuses'],
	['a short date', 'createContact', { ...A, birthday: '2000-2-9' }, 'refuses'],
	['a date-time as a date', 'createContact', { ...A, birthday: '2000-02-29T00:00:00Z' }, 'refuses'],
	['two CC addresses', 'createContact', { ...A, cc_email: 'a@b.co, c@d.co' }, 'accepts'],
	['10 CC addresses', 'createContact', { ...A, cc_email: emails(10) }, 'accepts'],
	['11 CC addresses', 'createContact', { ...A, cc_email: emails(11) }, 'refuses'],
	['a CC list with a blank entry', 'createContact', { ...A, cc_email: 'a@b.co,' }, 'refuses'],
	['a bad CC address', 'createContact', { ...A, cc_email: 'x@y.co, nope' }, 'refuses'],
	['a social map', 'createContact', { ...A, social: { linkedin: 'https://l.example' } }, 'accepts'],
	[
		'a social map with an empty network',
		'createContact',
		{ ...A, social: { '': 'https://l.example' } },
		'refuses',
	],
	[
		'a social map with a blank network',
		'createContact',
		{ ...A, social: { ' ': 'https://l.example' } },
		'refuses',
	],
	['a social map with a number', 'createContact', { ...A, social: { x: 5 } }, 'refuses'],
	['a social list', 'createContact', { ...A, social: [] }, 'refuses'],
	['no tags', 'createContact', { ...A, tags: [] }, 'accepts'],
	['a blank tag name', 'createContact', { ...A, tags: [''] }, 'refuses'],
	['tags as text', 'createContact', { ...A, tags: 'VIP' }, 'refuses'],
	['no tag ids', 'createContact', { ...A, tag_ids: [] }, 'accepts'],
	['a tag id that is no UUID', 'createContact', { ...A, tag_ids: ['vip'] }, 'refuses'],
	['tags and tag ids', 'createContact', { ...A, tags: [], tag_ids: [] }, 'refuses'],
	['a boolean', 'createContact', { ...A, uses_agency_address: true }, 'accepts'],
	['a boolean as text', 'createContact', { ...A, uses_agency_address: 'true' }, 'refuses'],
	['an agency id that is no UUID', 'createContact', { ...A, agency_id: 'acme' }, 'refuses'],
	['an unknown field', 'createContact', { ...A, nickname: 'R' }, 'refuses'],
	['a first name', 'updateContact', { first_name: 'Renamed' }, 'accepts'],
	['a first name of spaces', 'updateContact', { first_name: ' ' }, 'refuses'],
	['a null email', 'updateContact', { email: null }, 'refuses'],
	['a cleared social map', 'updateContact', { social: null }, 'accepts'],
];

describe('contact body rules', () => {
	let contactId: string;
	beforeAll(async () => {
		const created = await sandbox.api().post('/v1/contacts', A);
		contactId = String(created.body.id);
	});

	it.each(BODY_ROWS)('%s (%s %j): both %s', async (_name, endpoint, body, expected) => {
		const atNode = nodeCheck(() => validateBody(node, endpoint, body));
		const sent = atNode.verdict === 'accepts' ? atNode.sent : body;
		const answer =
			endpoint === 'createContact'
				? await sandbox.api().post('/v1/contacts', sent)
				: await sandbox.api().patch(`/v1/contacts/${contactId}`, sent);
		expect({ node: atNode.verdict, sandbox: sandboxVerdict(answer) }).toEqual({
			node: expected,
			sandbox: expected,
		});
	});
});

describe('what the body rules send: each value as the API stores it', () => {
	it('an email trimmed, a CC list as sent (not re-joined), ids in lower case without repeats', () => {
		const upper = UUID.toUpperCase();
		expect(
			validateBody(node, 'createContact', {
				...A,
				email: ' Ann@Example.com ',
				cc_email: 'a@b.co ,c@d.co',
				agency_id: upper,
				tag_ids: [upper, UUID],
			}),
		).toEqual({
			...A,
			email: 'Ann@Example.com',
			cc_email: 'a@b.co ,c@d.co',
			agency_id: UUID,
			tag_ids: [UUID],
		});
	});
});

type FileRow = [string, 'photo' | 'document', string, string, Expected, Buffer];
const FILE_ROWS: FileRow[] = [
	['a gif photo', 'photo', 'me.gif', 'image/gif', 'accepts', GIF],
	['an upper-case extension', 'photo', 'ME.GIF', 'image/gif', 'accepts', GIF],
	['a bmp photo', 'photo', 'me.bmp', 'image/bmp', 'refuses', GIF],
	['a content type that does not match', 'photo', 'me.jpg', 'image/gif', 'refuses', GIF],
	['a name that is only an extension', 'photo', '.gif', 'image/gif', 'refuses', GIF],
	[
		'a text document',
		'document',
		'notes.txt',
		'text/plain; charset=utf-8',
		'accepts',
		Buffer.from('hi'),
	],
	[
		'an exe document',
		'document',
		'tool.exe',
		'application/octet-stream',
		'refuses',
		Buffer.from('MZ'),
	],
	[
		'a document of exactly 10 MB',
		'document',
		'a.csv',
		'text/csv',
		'accepts',
		Buffer.alloc(10 * MB, 97),
	],
	[
		'a document over 10 MB',
		'document',
		'a.csv',
		'text/csv',
		'refuses',
		Buffer.alloc(10 * MB + 1, 97),
	],
];

describe('file rules', () => {
	let contactId: string;
	let inspectionId: string;
	beforeAll(async () => {
		contactId = String((await sandbox.api().post('/v1/contacts', A)).body.id);
		const inspections = await sandbox.api().get('/v1/inspections?limit=1');
		inspectionId = String((inspections.body.data as Json[])[0].id);
	});

	it.each(FILE_ROWS)(
		'%s (%s %s %s): both %s',
		async (_name, kind, fileName, mimeType, expected, data) => {
			const atNode = nodeCheck(() => validateUploadFile(node, kind, { data, fileName, mimeType }));
			const sentType = atNode.verdict === 'accepts' ? String(atNode.sent) : mimeType;
			const answer =
				kind === 'photo'
					? await sandbox
							.api()
							.upload(`/v1/contacts/${contactId}/photo`, file(data, fileName, sentType))
					: await sandbox
							.api()
							.upload(
								`/v1/inspections/${inspectionId}/attachments`,
								file(data, fileName, sentType, { kind: 'document' }),
							);
			expect({ node: atNode.verdict, sandbox: sandboxVerdict(answer) }).toEqual({
				node: expected,
				sandbox: expected,
			});
		},
	);
});
