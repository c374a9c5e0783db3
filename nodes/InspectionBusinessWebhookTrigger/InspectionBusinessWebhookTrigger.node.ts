import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { isUuid } from '../shared/rules/formats';
import { getByIds, idKey } from '../shared/transport';
import { headerValue, secretProblem, secretsMatch, signatureMatches } from './auth';
import { listOfEvent, readPayload, type WebhookPayload } from './payload';
import { WEBHOOK_TRIGGER_PROPERTIES } from './properties';
import { isRepeat, remember } from './replay';

/** Answers 401 itself and starts no execution: nothing of an unauthenticated request reaches the workflow. */
function refuse(context: IWebhookFunctions, reason: string): IWebhookResponseData {
	context
		.getResponseObject()
		.status(401)
		.json({ message: `Unauthorized: ${reason}` });
	return { noWebhookResponse: true };
}

/** The shared secret (A15): from the webhook credential, or from the node itself (version 1's way). */
async function sharedSecret(context: IHookFunctions | IWebhookFunctions): Promise<string> {
	if (context.getNodeParameter('secretSource', 'parameter') !== 'credential')
		return context.getNodeParameter('secret', '') as string;
	const { secret } = await context.getCredentials('inspectionBusinessWebhookApi');
	return typeof secret === 'string' ? secret : '';
}

/**
 * Reads the record an event is about. A failure is thrown: n8n then answers the delivery with 500
 * (not acknowledged), so the sender retries it, and records the error as a failed execution.
 */
async function refetchRecord(
	context: IWebhookFunctions,
	{ event, recordId, deliveryId }: WebhookPayload,
): Promise<IDataObject | null> {
	const list = listOfEvent(event);
	// The transport refuses ids that are not UUIDs; such a payload simply has no record to read.
	if (!list || !recordId || !isUuid(recordId)) return null;
	try {
		const found = await getByIds.call(context, list.endpoint, [recordId], { query: list.query });
		return found.get(idKey(recordId)) ?? null;
	} catch (error) {
		const delivery = deliveryId === undefined ? 'the delivery' : `delivery ${deliveryId}`;
		throw new NodeOperationError(
			context.getNode(),
			`Could not re-fetch ${list.noun} ${recordId} (${(error as Error).message}); ${delivery} was not acknowledged`,
			{
				description: `n8n answered ${delivery} of event ${String(event)} with 500 and did not remember it as received, so the account's retry of it starts the workflow.`,
			},
		);
	}
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
		// Version 2: the secret defaults to a credential of its own; version 1 keeps it in the node.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["events"].length ? $parameter["events"].join(", ") : "All events"}}',
		description:
			'Starts the workflow when the account sends a webhook: an inspection confirmed, rescheduled, canceled or published, or a contact changed',
		defaults: { name: 'Inspection Business Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'inspectionBusinessWebhookApi',
				required: true,
				displayOptions: { show: { secretSource: ['credential'] } },
				testedBy: 'webhookSecret',
			},
			// The API key is needed only to re-fetch the record.
			{
				name: 'inspectionBusinessApi',
				required: true,
				displayOptions: { show: { refetchRecord: [true] } },
			},
		],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: WEBHOOK_TRIGGER_PROPERTIES,
	};

	methods = {
		credentialTest: {
			// The secret is never sent anywhere by n8n, so the test checks what it can locally.
			async webhookSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const problem = secretProblem(credential.data?.secret);
				return problem === undefined
					? { status: 'OK', message: 'The secret can be used' }
					: { status: 'Error', message: problem };
			},
		},
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
				if ((await sharedSecret(this)).trim() === '') {
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
		const secret = await sharedSecret(this);
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
		const read = readPayload(payload);
		const { event, recordId, deliveryId } = read;
		const wanted = this.getNodeParameter('events', []) as string[];
		if (wanted.length > 0 && (event === undefined || !wanted.includes(event))) {
			// Acknowledged, so the sender does not retry, but no execution starts.
			return {
				webhookResponse: { received: true, ignored: `event ${event ?? '(none)'} is not selected` },
			};
		}

		const now = Date.now();
		const memory =
			deliveryId !== undefined && (this.getNodeParameter('ignoreRepeats', true) as boolean)
				? this.getWorkflowStaticData('node')
				: undefined;
		if (memory && deliveryId && isRepeat(memory, deliveryId, now)) {
			return {
				webhookResponse: { received: true, ignored: `delivery ${deliveryId} was already received` },
			};
		}

		const item: IDataObject = {
			event: event ?? null,
			id: recordId ?? null,
			deliveryId: deliveryId ?? null,
			payload,
		};
		if (this.getNodeParameter('refetchRecord', false) as boolean)
			item.record = await refetchRecord(this, read);
		// Remembered only now, when nothing can fail any more: n8n saves the static data once it has
		// started the execution and acknowledges the delivery, and drops it when anything above throws.
		if (memory && deliveryId) remember(memory, deliveryId, now);
		return { workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
