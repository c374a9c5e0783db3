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
import { eventsSubtitle } from '../shared/subtitle';
import { headerValue, secretProblem, secretsMatch, signatureMatches } from './auth';
import { listOfEvent, readPayload, type WebhookPayload } from './payload';
import { WEBHOOK_TRIGGER_PROPERTIES } from './properties';
import { fetchRecord } from './refetch';
import { DeliveryMemory } from './replay';

/** Answers 401 itself and starts no execution: nothing of an unauthenticated request reaches the workflow. */
function refuse(context: IWebhookFunctions, reason: string): IWebhookResponseData {
	context
		.getResponseObject()
		.status(401)
		.json({ message: `Unauthorized: ${reason}` });
	return { noWebhookResponse: true };
}

/** The shared secret: from the webhook credential, or from the node itself (version 1's way). */
async function sharedSecret(context: IHookFunctions | IWebhookFunctions): Promise<string> {
	if (context.getNodeParameter('secretSource', 'parameter') !== 'credential')
		return context.getNodeParameter('secret', '') as string;
	const { secret } = await context.getCredentials('inspectionBusinessWebhookApi');
	return typeof secret === 'string' ? secret : '';
}

/** Why the request is not from the account (its reason for the 401), or undefined when it is. */
async function authenticationProblem(context: IWebhookFunctions): Promise<string | undefined> {
	const secret = await sharedSecret(context);
	const location = context.getNodeParameter('secretLocation', 'header') as string;
	const given =
		location === 'query'
			? (context.getQueryData() as IDataObject)[
					context.getNodeParameter('queryParameterName', 'secret') as string
				]
			: headerValue(context.getHeaderData(), context.getNodeParameter('headerName', '') as string);
	if (!secretsMatch(typeof given === 'string' ? given : undefined, secret))
		return 'missing or wrong secret';
	if (!(context.getNodeParameter('verifySignature', false) as boolean)) return undefined;
	const request = context.getRequestObject();
	// n8n reads the raw body lazily; it is the signed bytes, not the parsed JSON.
	if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function')
		await request.readRawBody();
	const signatureHeader = context.getNodeParameter('signatureHeader', '') as string;
	const signature = headerValue(context.getHeaderData(), signatureHeader);
	return signatureMatches(signature, request.rawBody, secret)
		? undefined
		: 'missing or wrong signature';
}

/** The node across requests: deliveries are remembered and batched per workflow and node. */
function triggerScope(context: IWebhookFunctions): string {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}:${node.id ?? node.name}`;
}

/**
 * Reads the record a delivery is about, after the delivery was acknowledged. A failure is thrown:
 * n8n then records a failed execution that names the record and the delivery, so it is never
 * silent, and the delivery is not remembered, so a re-send of it runs.
 */
async function readRecord(
	context: IWebhookFunctions,
	{ event, recordId, deliveryId }: WebhookPayload,
): Promise<IDataObject | null> {
	const list = listOfEvent(event);
	// The list refuses ids that are not UUIDs; such a payload simply has no record to read.
	if (!list || !recordId || !isUuid(recordId)) return null;
	try {
		return await fetchRecord(context, triggerScope(context), list, recordId);
	} catch (error) {
		const delivery = deliveryId === undefined ? 'the delivery' : `delivery ${deliveryId}`;
		throw new NodeOperationError(
			context.getNode(),
			`Could not re-fetch ${list.noun} ${recordId} of ${delivery} (${(error as Error).message})`,
			{
				description: `The account was already told that ${delivery} of event ${String(event)} arrived (200), so it will not send it again. Look at ${list.noun} ${recordId} in the account; a re-send of the delivery starts the workflow.`,
			},
		);
	}
}

/** Event names entered as text: comma- or space-separated, empty entries dropped. */
const eventNames = (text: string): string[] =>
	text
		.split(/[\s,]+/)
		.map((name) => name.trim())
		.filter((name) => name !== '');

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
		subtitle: eventsSubtitle(WEBHOOK_TRIGGER_PROPERTIES, 'All events'),
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
			// Webhooks are registered by hand in the business tools (the API has no endpoint for it),
			// so nothing remote can be looked up (webhooksRegisteredByHand). Reporting
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

	/**
	 * Answers an accepted delivery itself, at once, before the record is read: the sender never
	 * waits on the API's rate budget. Returning noWebhookResponse also makes n8n save the delivery
	 * memory (static data) before it starts the execution; when n8n answers for the node it saves
	 * only after the execution has started, and by then the change is no longer seen as one.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const problem = await authenticationProblem(this);
		if (problem !== undefined) return refuse(this, problem);

		const payload = this.getBodyData();
		const delivery = readPayload(payload);
		const { event, recordId, deliveryId } = delivery;
		const wanted = [
			...(this.getNodeParameter('events', []) as string[]),
			...eventNames(this.getNodeParameter('otherEvents', '') as string),
		];
		if (wanted.length > 0 && (event === undefined || !wanted.includes(event))) {
			// Acknowledged, so the sender does not retry, but no execution starts.
			return {
				webhookResponse: { received: true, ignored: `event ${event ?? '(none)'} is not selected` },
			};
		}
		const remembers =
			deliveryId !== undefined && (this.getNodeParameter('ignoreRepeats', true) as boolean);
		const memory = new DeliveryMemory(this.getWorkflowStaticData('node'), triggerScope(this));
		if (remembers && memory.isRepeat(deliveryId)) {
			return {
				webhookResponse: { received: true, ignored: `delivery ${deliveryId} was already received` },
			};
		}
		if (remembers) memory.take(deliveryId);
		this.getResponseObject().status(200).json({ received: true });

		const item: IDataObject = {
			event: event ?? null,
			id: recordId ?? null,
			deliveryId: deliveryId ?? null,
			payload,
		};
		if (this.getNodeParameter('refetchRecord', false) as boolean) {
			let read = false;
			try {
				item.record = await readRecord(this, delivery);
				read = true;
			} finally {
				// The failed execution does not count as processing it: a re-send should run.
				if (!read && remembers) memory.release(deliveryId);
			}
		}
		if (remembers) memory.save();
		return { noWebhookResponse: true, workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
