/** Contract: real sandbox answers of every endpoint validate against the OpenAPI document’s schemas (ajv, 2020-12). */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ENDPOINTS, endpointPath, type EndpointKey } from '../../nodes/shared/endpoints';
import { OPENAPI_FILE } from '../../openapi/generate';
import { SAMPLE_FILES } from '../../sandbox/samples';
import { type Answer, fields, file, type Json, useSandbox } from './support';

export function contract(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();
	const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
	const ajv = addFormats(new Ajv2020({ allErrors: true }));
	const schemas = JSON.parse(
		JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', ''),
	) as Record<string, Json>;
	for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema, name);
	const exercised = new Set<EndpointKey>();

	/** The answer has the documented status and validates against the documented schema. */
	function expectContract(key: EndpointKey, res: Answer): void {
		const { method, path } = ENDPOINTS[key];
		const responses = doc.paths[path][method.toLowerCase()].responses as Json;
		expect(Object.keys(responses)).toContain(String(res.status));
		const name = String(responses[res.status].content['application/json'].schema.$ref).replace(
			'#/components/schemas/',
			'',
		);
		const validate = ajv.getSchema(name);
		if (!validate) throw new Error(`no schema ${name}`);
		if (!validate(res.body))
			throw new Error(
				`${key} ${res.status} does not match ${name}: ${ajv.errorsText(validate.errors).slice(0, 600)}`,
			);
		if (res.status < 400) {
			expect(res.status).toBe(ENDPOINTS[key].response.status);
			exercised.add(key);
		}
	}

	async function walkContract(key: EndpointKey, path: string, limit = 200): Promise<Json[]> {
		const all: Json[] = [];
		let cursor: string | null = null;
		do {
			const res: Answer = await api().get(
				`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			expectContract(key, res);
			all.push(...res.body.data);
			cursor = res.body.next_cursor;
		} while (cursor);
		return all;
	}

	let inspections: Json[] = [];
	beforeAll(async () => {
		inspections = await walkContract(
			'listInspections',
			'/v1/inspections?include_canceled=true&include_deleted=true',
		);
	});

	describe('every record of every list matches its schema', () => {
		it.each([
			['listContacts', '/v1/contacts'],
			['listContactStats', '/v1/contacts/stats?from=2024-01-01'],
			['listTags', '/v1/tags'],
			['listAgencies', '/v1/agencies'],
			['listEvents', '/v1/events'],
			['listAttachments', '/v1/attachments'],
		] as const)('%s', async (key, path) => {
			expect((await walkContract(key, path)).length).toBeGreaterThan(0);
		});

		it('listInspections, deleted and canceled included', () => {
			expect(inspections.some((i) => i.deleted)).toBe(true);
			expect(inspections.some((i) => i.status === 'canceled')).toBe(true);
		});

		it('listInspectionAttachments', async () => {
			for (const i of inspections.filter((x) => !x.deleted).slice(0, 40)) {
				await walkContract(
					'listInspectionAttachments',
					endpointPath('listInspectionAttachments', { inspection_id: i.id }),
				);
			}
		});

		it('globex lists too', async () => {
			const res = await sandbox.api('globex').get('/v1/contacts?limit=200');
			expectContract('listContacts', res);
		});
	});

	describe('writes answer with the documented status and schema', () => {
		it('createContact, updateContact, uploadContactPhoto, deleteContactPhoto', async () => {
			const agency = (await api().get('/v1/agencies?limit=1')).body.data[0];
			const created = await api().post('/v1/contacts', {
				first_name: 'Con',
				last_name: 'Tract',
				email: 'contract@example.com',
				cc_email: 'a@example.com, b@example.com',
				phone: '303-555-0100',
				business_name: 'Contract LLC',
				agency_id: agency.id,
				uses_agency_address: true,
				country: 'US',
				birthday: '1980-05-06',
				website: 'https://contract.example',
				social: { x: 'https://x.example/c' },
				notes: 'n',
				tags: ['VIP'],
			});
			expectContract('createContact', created);
			const id = created.body.id as string;
			expectContract(
				'updateContact',
				await api().patch(endpointPath('updateContact', { contact_id: id }), {
					agency_id: null,
					agency_name: 'Plain',
					tags: [],
				}),
			);
			expectContract(
				'uploadContactPhoto',
				await api().upload(
					endpointPath('uploadContactPhoto', { contact_id: id }),
					file(SAMPLE_FILES.webp, 'c.webp', 'image/webp'),
				),
			);
			expectContract(
				'deleteContactPhoto',
				await api().delete(endpointPath('deleteContactPhoto', { contact_id: id })),
			);
		});

		it('uploadAttachment, report and document', async () => {
			const confirmed = inspections.find((i) => i.status === 'confirmed' && !i.deleted) as Json;
			const path = endpointPath('uploadAttachment', { inspection_id: confirmed.id });
			expectContract(
				'uploadAttachment',
				await api().upload(
					path,
					file(SAMPLE_FILES.pdf, 'r.pdf', 'application/pdf', {
						kind: 'report',
						name: 'R',
						description: 'd',
					}),
				),
			);
			expectContract(
				'uploadAttachment',
				await api().upload(path, fields({ kind: 'report', name: 'Link only' })),
			);
			expectContract(
				'uploadAttachment',
				await api().upload(
					path,
					file(SAMPLE_FILES.csv, 'd.csv', 'text/csv', { kind: 'document', internal_only: 'true' }),
				),
			);
		});
	});

	describe('error answers match the Error schema (errorBodyShapes)', () => {
		it('400, 401, 404, 413 and 429', async () => {
			const contact = (await api().get('/v1/contacts?limit=1')).body.data[0];
			expectContract('listContacts', await api().get('/v1/contacts?limit=0'));
			expectContract('createContact', await api().post('/v1/contacts', { first_name: 'x' }));
			expectContract('listTags', await sandbox.api('revoked').get('/v1/tags'));
			expectContract(
				'updateContact',
				await api().patch('/v1/contacts/00000000-0000-4000-8000-000000000000', {}),
			);
			expectContract(
				'uploadContactPhoto',
				await api().upload(
					`/v1/contacts/${contact.id}/photo`,
					file(Buffer.alloc(10 * 1024 * 1024 + 1), 'big.png', 'image/png'),
				),
			);
			await sandbox.control.setRateLimit(1);
			await api().get('/v1/tags');
			const limited = await api().get('/v1/tags');
			expect(limited.status).toBe(429);
			expectContract('listTags', limited);
			await sandbox.control.setRateLimit(100_000);
		});
	});

	afterAll(() => {
		expect([...exercised].sort()).toEqual((Object.keys(ENDPOINTS) as EndpointKey[]).sort());
	});
}
