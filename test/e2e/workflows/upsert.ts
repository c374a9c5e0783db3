/**
 * Contact Create or Update and the photo downloads in a real n8n: three items
 * (a new email, an existing contact's email in upper case, the new email
 * again), then a contact's photo and an inspection's cover photo into binary.
 * The email of the new contact is fixed, so a second run updates it.
 */
import { SANDBOX_CREDENTIAL } from '../../../scripts/workflows';
import { actionNode, chain, codeNode, manualTrigger } from './build';

export const UPSERT_ID = 'IbE2eUpsert00001';
export const UPSERT_EMAIL = 'e2e.upsert@example.com';

const ib = (
	name: string,
	resource: string,
	operation: string,
	parameters: Record<string, unknown> = {},
	options: Record<string, unknown> = {},
) => actionNode(SANDBOX_CREDENTIAL, name, resource, operation, parameters, options);
const once = { executeOnce: true };

/** A Code node passing on the id of the first record of `node` that has `field`. */
const firstWith = (name: string, node: string, field: string) =>
	codeNode(
		name,
		[
			`const found = $('${node}').all().find((item) => item.json.${field});`,
			`if (!found) throw new Error('No record of ${node} has ${field}');`,
			'return [{ json: { id: found.json.id } }];',
		].join('\n'),
	);

export function upsertWorkflow() {
	return chain(UPSERT_ID, 'E2E: create or update, photos to binary', [
		manualTrigger(),
		ib('Some contacts', 'contact', 'getAll', { limit: 200 }, once),
		codeNode(
			'Upsert input',
			[
				`const existing = $('Some contacts').first().json.email;`,
				'return [',
				`  { json: { email: '${UPSERT_EMAIL}', first_name: 'First' } },`,
				`  { json: { email: existing.toUpperCase(), first_name: 'Matched' } },`,
				`  { json: { email: '${UPSERT_EMAIL.toUpperCase()}', first_name: 'Second' } },`,
				'];',
			].join('\n'),
		),
		ib('Create or update', 'contact', 'upsert', {
			email: '={{ $json.email }}',
			first_name: '={{ $json.first_name }}',
			additionalFields: { city: 'Lakewood' },
		}),
		firstWith('Contact with photo', 'Some contacts', 'photo_url'),
		ib('Download photo', 'contact', 'downloadPhoto', {
			id: '={{ $json.id }}',
			binaryPropertyName: 'photo',
		}),
		ib('Inspections', 'inspection', 'getAll', { limit: 100, simplify: false }, once),
		firstWith('Inspection with cover', 'Inspections', 'cover_photo_url'),
		ib('Download cover photo', 'inspection', 'downloadCoverPhoto', {
			id: '={{ $json.id }}',
			binaryPropertyName: 'cover',
		}),
	]);
}
