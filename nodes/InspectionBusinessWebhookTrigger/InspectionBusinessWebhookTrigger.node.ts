import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { WEBHOOK_EVENTS } from '../shared/endpoints';
import { getByIds, idKey } from '../shared/transport';
import { headerValue, secretsMatch, signatureMatches } from './auth';
import { listOfEvent, readPayload } from './payload';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const EVENT_NAMES: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
	'contact.changed': 'Contact Changed',
	'inspection.canceled': 'Inspection Canceled',
	'inspection.confirmed': 'Inspection Confirmed',
	'inspection.published': 'Inspection Report Published',
	'inspection.rescheduled': 'Inspection Rescheduled',
};

/** Answers 401 itself and starts no execution: nothing of an unauthenticated request reaches the workflow. */
function refuse(context: IWebhookFunctions, reason: string): IWebhookResponseData {
	context
		.getResponseObject()
		.status(401)
		.json({ message: `Unauthorized: ${reason}` });
	return { noWebhookResponse: true };
}

export class InspectionBusinessWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inspection Business Webhook Trigger',
		name: 'inspectionBusinessWebhookTrigger',
		icon: {
			light: 'file:../../icons/inspection-business.svg',
			dark: 'file:../../icons/inspection-business.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].length ? $parameter["events"].join(", ") : "All events"}}',
		description:
			'Starts the workflow when the account sends a webhook: an inspection confirmed, rescheduled, canceled or published, or a contact changed',
		defaults: { name: 'Inspection Business Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// The key is needed only to re-fetch the record.
		credentials: [
			{
				name: 'inspectionBusinessApi',
				required: true,
				displayOptions: { show: { refetchRecord: [true] } },
			},
		],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{
				displayName:
					"Webhooks are registered by hand: copy the Production URL above into the account's business tools (Settings → Webhooks / API settings), together with the secret below and where it is sent. Then activate this workflow.",
				name: 'registrationNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				default: [],
				description:
					'The events that start the workflow; none selected means every event. Other events are answered with 200 and ignored.',
				options: WEBHOOK_EVENTS.map((value) => ({ name: EVENT_NAMES[value], value })),
			},
			{
				displayName: 'Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				required: true,
				default: '',
				description:
					'A secret you choose and also enter in the business tools. A request without it is answered with 401 and starts nothing.',
			},
			{
				displayName: 'Secret Location',
				name: 'secretLocation',
				type: 'options',
				options: [
					{ name: 'Header', value: 'header', description: 'The secret comes in a request header' },
					{
						name: 'Query Parameter',
						value: 'query',
						description: 'The secret is part of the URL you register, e.g. ?secret=…',
					},
				],
				default: 'header',
			},
			{
				displayName: 'Header Name',
				name: 'headerName',
				type: 'string',
				default: 'X-Webhook-Secret',
				displayOptions: { show: { secretLocation: ['header'] } },
			},
			{
				displayName: 'Query Parameter Name',
				name: 'queryParameterName',
				type: 'string',
				default: 'secret',
				displayOptions: { show: { secretLocation: ['query'] } },
			},
			{
				displayName: 'Verify Signature',
				name: 'verifySignature',
				type: 'boolean',
				default: false,
				description:
					'Whether to also require an HMAC-SHA256 of the raw body, keyed with the secret, as hex or base64 in a header',
			},
			{
				displayName: 'Signature Header Name',
				name: 'signatureHeader',
				type: 'string',
				default: 'X-Signature',
				displayOptions: { show: { verifySignature: [true] } },
			},
			{
				displayName: 'Re-Fetch Record',
				name: 'refetchRecord',
				type: 'boolean',
				default: false,
				description:
					'Whether to read the full inspection or contact through the API and add it as "record" (null when the account has no such record). Needs the credential.',
			},
		],
	};

	webhookMethods = {
		default: {
			// A13: there is no registration endpoint, so nothing remote can be looked up. Reporting
			// "not registered" makes n8n run create, which checks what can be checked, on every activation.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			// The user pastes the URL into the business tools; activating without a secret would
			// only produce 401s, so it is refused here with a clear message.
			async create(this: IHookFunctions): Promise<boolean> {
				const secret = this.getNodeParameter('secret', '') as string;
				if (secret.trim() === '') {
					throw new NodeOperationError(this.getNode(), 'Set a secret before activating', {
						description:
							'Choose a secret, enter it here and in the business tools, so only the account can start this workflow.',
					});
				}
				return true;
			},
			// Nothing can be removed remotely: the URL stays in the business tools until the user
			// deletes it there, and n8n answers it with 404 while the workflow is inactive.
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const secret = this.getNodeParameter('secret', '') as string;
		const location = this.getNodeParameter('secretLocation', 'header') as string;
		const given =
			location === 'query'
				? (this.getQueryData() as IDataObject)[
						this.getNodeParameter('queryParameterName', 'secret') as string
					]
				: headerValue(this.getHeaderData(), this.getNodeParameter('headerName', '') as string);
		if (!secretsMatch(typeof given === 'string' ? given : undefined, secret))
			return refuse(this, 'missing or wrong secret');

		if (this.getNodeParameter('verifySignature', false) as boolean) {
			const request = this.getRequestObject();
			// n8n reads the raw body lazily; it is the signed bytes, not the parsed JSON.
			if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function')
				await request.readRawBody();
			const signature = headerValue(
				this.getHeaderData(),
				this.getNodeParameter('signatureHeader', '') as string,
			);
			if (!signatureMatches(signature, request.rawBody, secret))
				return refuse(this, 'missing or wrong signature');
		}

		const payload = this.getBodyData();
		const { event, recordId } = readPayload(payload);
		const wanted = this.getNodeParameter('events', []) as string[];
		if (wanted.length > 0 && (event === undefined || !wanted.includes(event))) {
			// Acknowledged, so the sender does not retry, but no execution starts.
			return {
				webhookResponse: { received: true, ignored: `event ${event ?? '(none)'} is not selected` },
			};
		}

		const item: IDataObject = { event: event ?? null, id: recordId ?? null, payload };
		if (this.getNodeParameter('refetchRecord', false) as boolean) {
			const list = listOfEvent(event);
			// The transport refuses ids that are not UUIDs; such a payload simply has no record to read.
			const found =
				list && recordId && UUID.test(recordId)
					? await getByIds.call(this, list.endpoint, [recordId], { query: list.query })
					: undefined;
			item.record = found?.get(idKey(recordId ?? '')) ?? null;
		}
		return { workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
