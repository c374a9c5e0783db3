/**
 * Programming errors in a call to the list transport (pages.ts), refused
 * before anything is sent: a walk of an endpoint that is not a list, a walk
 * given its own cursor or limit (paginate sets both; a Limit is `max`), and
 * Get by IDs on a list the API cannot read by IDs. No call in the node makes
 * them: its walks and Gets name list endpoints with IDs from its own tables,
 * and Filters never offers cursor or limit (fields.ts NOT_FILTERS).
 */
import type { EndpointKey } from '../../nodes/shared/endpoints';
import { getByIds, readAll, type ListOptions } from '../../nodes/shared/transport/pages';
import { failureOf } from './context';
import { type FakeApi, startFakeApi } from './fake-api';

export function listGuards(): void {
	const contactId = '00000000-0000-4000-8000-000000000001';
	let api: FakeApi;

	beforeEach(async () => {
		api = await startFakeApi();
	});
	afterEach(async () => await api.close());

	it.each<[string, EndpointKey, ListOptions]>([
		['an endpoint that creates', 'createContact', {}],
		['an endpoint that deletes', 'deleteContactPhoto', { pathParams: { contact_id: contactId } }],
		['a list given its own cursor', 'listContacts', { query: { cursor: 'abc' } }],
		['a list given its own limit', 'listContacts', { query: { limit: 5 } }],
		['a list given its own limit next to a Limit', 'listTags', { query: { limit: 5 }, max: 5 }],
	])('a walk of %s is refused before anything is sent', async (_name, endpoint, options) => {
		const error = await failureOf({ apiKey: 'k', baseUrl: api.baseUrl }, async function () {
			return await readAll.call(this, endpoint, options);
		});
		// Refused by the node itself, not an answer of the API (that would be a NodeApiError).
		expect(error.name).toBe('NodeOperationError');
		expect(api.requests).toEqual([]);
	});

	it.each<EndpointKey>(['listTags', 'listAttachments'])(
		'Get by IDs of %s (a list without an ids filter) is refused before anything is sent',
		async (endpoint) => {
			const error = await failureOf({ apiKey: 'k', baseUrl: api.baseUrl }, async function () {
				return await getByIds.call(this, endpoint, [contactId]);
			});
			expect(error.name).toBe('NodeOperationError');
			expect(api.requests).toEqual([]);
		},
	);
}
