import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { bodyCollection, bodyField, bodyProperty, fieldsToClear } from '../../../shared/fields';
import { apiRequest } from '../../../shared/transport/request';
import { underRule, validateBody } from '../../../shared/validation';
import { addFieldsToClear, assertNoExclusiveConflict } from '../../helpers/contactBody';
import { emailKey, matchEmails } from '../../helpers/emailMatch';
import { continueOrThrow, errorItem } from '../../helpers/execution';
import type { ItemError } from '../../helpers/execution';
import { dateTimeZone } from '../../helpers/timezone';
import { bodyValues } from '../../helpers/wireValues';

/**
 * Its fields are ContactCreate's; it also reads contacts by email (see
 * helpers/emailMatch.ts) and updates with ContactUpdate.
 */
export const endpoint: EndpointKey = 'createContact';

const CREATE = endpoint;
const UPDATE: EndpointKey = 'updateContact';
/** The match key and the field a new contact needs; the other fields are Additional Fields. */
const OWN_FIELDS = ['email', 'first_name'];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['upsert'] } },
	[
		{
			...bodyProperty(bodyField(CREATE, 'email')),
			required: true,
			description:
				'The contact with this email (case-insensitive) is updated, else one is created. Safe to run again: a re-run finds the contact by email and updates it, never creating a second one. The email itself is not changed on update.',
		},
		{
			...bodyProperty(bodyField(UPDATE, 'first_name')),
			hint: 'Required to create a contact; on update, changed only when set',
		},
		bodyCollection(CREATE, { displayName: 'Additional Fields', name: 'additionalFields' }, [
			...OWN_FIELDS,
		]),
		{
			...fieldsToClear(UPDATE),
			description:
				'Fields to empty on the contact: sent as null, or as an empty list for tags. A field cannot be both set and cleared.',
		},
	],
);

type UpsertAction = 'created' | 'updated' | 'unchanged';

interface Pending {
	email: string;
	/** What is sent: the fields set and the fields cleared; never the email. */
	changes: IDataObject;
}

/**
 * Create or Update, matched on email. All items' emails are matched first
 * with the fewest requests, then each item is written in input order: a
 * second item with an email that the first just created updates that contact.
 * An email held by several contacts fails its items without writing. Each
 * output item is the contact plus `action`: created, updated, or unchanged
 * (the contact exists and nothing was given to change, so nothing is sent).
 */
export async function executeBatch(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const pending: Array<Pending | { error: ItemError }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			pending.push(readItem(this, itemIndex));
		} catch (error) {
			pending.push({ error: continueOrThrow(this, error, itemIndex) });
		}
	}

	const emails = pending.flatMap((entry) => ('email' in entry ? [entry.email] : []));
	const { matches } = await matchEmails.call(this, emails);

	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < pending.length; itemIndex++) {
		const entry = pending[itemIndex];
		try {
			if ('error' in entry) throw entry.error;
			const key = emailKey(entry.email);
			const match = matches.get(key) ?? [];
			if (!Array.isArray(match)) throw match.failed;
			const write = plannedWrite(this, entry, match, itemIndex);
			const contact =
				write.action === 'unchanged'
					? write.contact
					: await apiRequest.call(this, write.endpoint, write.request);
			const { action } = write;
			matches.set(key, [contact]);
			output.push({ json: { ...contact, action }, pairedItem: { item: itemIndex } });
		} catch (error) {
			output.push(errorItem(continueOrThrow(this, error, itemIndex), itemIndex));
		}
	}
	return output;
}

function readItem(ctx: IExecuteFunctions, itemIndex: number): Pending {
	// The rule book's email check (trimmed, one address), before anything is sent.
	const { email } = validateBody(ctx.getNode(), UPDATE, {
		email: ctx.getNodeParameter('email', itemIndex),
	});
	const values: IDataObject = {
		...(ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
		first_name: ctx.getNodeParameter('first_name', itemIndex, ''),
	};
	const changes = underRule(ctx.getNode(), () => bodyValues(UPDATE, values, dateTimeZone(ctx)));
	addFieldsToClear(ctx, UPDATE, changes, itemIndex, 'Additional Fields');
	assertNoExclusiveConflict(ctx, UPDATE, changes, itemIndex);
	return { email: String(email), changes };
}

/** One item's write, decided from its email's match: nothing to send, an update, or a create. */
type Write =
	| { action: 'unchanged'; contact: IDataObject }
	| {
			action: Exclude<UpsertAction, 'unchanged'>;
			endpoint: EndpointKey;
			request: { pathParams?: Record<string, string>; body: IDataObject };
	  };

/** What to send for one item; an email held by several contacts, or a create without a name, fails it. */
function plannedWrite(
	ctx: IExecuteFunctions,
	{ email, changes }: Pending,
	match: IDataObject[],
	itemIndex: number,
): Write {
	if (match.length > 1) {
		const ids = match.map((contact) => String(contact.id)).join(', ');
		throw new NodeOperationError(
			ctx.getNode(),
			`${match.length} contacts have the email ${email}: ${ids}`,
			{
				itemIndex,
				description:
					'Nothing was written. Create or Update needs at most one contact per email: change the email of the duplicates in the app, or update one of them by ID with Update.',
			},
		);
	}
	if (match.length === 1) {
		if (Object.keys(changes).length === 0) return { action: 'unchanged', contact: match[0] };
		const pathParams = { contact_id: String(match[0].id) };
		return { action: 'updated', endpoint: UPDATE, request: { pathParams, body: changes } };
	}
	if (!changes.first_name) {
		throw new NodeOperationError(ctx.getNode(), `First Name is required to create ${email}`, {
			itemIndex,
			description: 'No contact has this email, so it is created, and a new contact needs a name.',
		});
	}
	return { action: 'created', endpoint: CREATE, request: { body: { ...changes, email } } };
}
