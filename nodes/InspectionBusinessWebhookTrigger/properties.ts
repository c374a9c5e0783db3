import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from '../shared/endpoints';

const SECRET_SOURCES: INodePropertyOptions[] = [
	{
		name: 'Credential',
		value: 'credential',
		description:
			"The secret is kept in an Inspection Business Webhook credential, outside the workflow's JSON",
	},
	{
		name: 'Node Parameter (Legacy)',
		value: 'parameter',
		description:
			"The secret is a field of this node, so it is part of the workflow's JSON and of every export",
	},
];

/**
 * Version 1 kept the secret in the node; its workflows store no `secretSource`, so for them the
 * default stays `parameter`. Version 2 defaults to the credential.
 */
const secretSource = (versions: number[], source: string): INodeProperties => ({
	displayName: 'Secret Source',
	name: 'secretSource',
	type: 'options',
	options: SECRET_SOURCES,
	default: source,
	displayOptions: { show: { '@version': versions } },
});

export const WEBHOOK_TRIGGER_PROPERTIES: INodeProperties[] = [
	{
		displayName:
			"This trigger assumes webhooks are registered by hand in the account's business tools. Open Webhook URLs at the top of this panel, copy the Production URL and register it there with the secret and where it is sent. Then publish (on n8n 1.x: activate) this workflow.",
		name: 'registrationNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName:
			'To test: the account sends only to the URL registered in its business tools, so listening for a test event waits forever unless the Test URL is the one registered there. Either register the Test URL for a while, or publish the workflow and make a change in the account (e.g. confirm an inspection) and open its run under Executions.',
		name: 'testNotice',
		type: 'notice',
		default: '',
	},
	// n8n shows the credential selectors after the last field they depend on (Secret Source,
	// Re-Fetch Record): those come first, so the credential is the first thing to fill in.
	secretSource([1], 'parameter'),
	secretSource([2], 'credential'),
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			'A secret you choose and also enter in the business tools. A request without it is answered with 401 and starts nothing.',
		displayOptions: { show: { secretSource: ['parameter'] } },
	},
	{
		displayName: 'Re-Fetch Record',
		name: 'refetchRecord',
		type: 'boolean',
		default: false,
		description:
			'Whether to read the full inspection or contact through the API and add it as "record" (null when the account has no such record). Needs the API credential.',
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
			'Whether to also require an HMAC-SHA256 of the raw body, keyed with the secret, in a header: as hex or base64 (standard or URL-safe), with or without a "sha256=" prefix',
	},
	{
		displayName: 'Signature Header Name',
		name: 'signatureHeader',
		type: 'string',
		default: 'X-Signature',
		displayOptions: { show: { verifySignature: [true] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		default: [],
		description:
			'The events that start the workflow; none selected means every event. Other events are answered with 200 and ignored.',
		options: [...WEBHOOK_EVENTS]
			.sort((a, b) => WEBHOOK_EVENT_LABELS[a].localeCompare(WEBHOOK_EVENT_LABELS[b]))
			.map((value) => ({ name: WEBHOOK_EVENT_LABELS[value], value })),
	},
	{
		// The account's real event names are not published: any name can be entered besides the assumed five.
		displayName: 'Other Event Names',
		name: 'otherEvents',
		type: 'string',
		default: '',
		placeholder: 'e.g. inspection.paid, agreement.signed',
		description:
			"Event names your account sends beyond those under Events, comma-separated, exactly as they appear in a delivery's payload. They start the workflow too; with Events and this both empty, every event does.",
	},
	{
		displayName: 'Ignore Repeated Deliveries',
		name: 'ignoreRepeats',
		type: 'boolean',
		default: true,
		description:
			'Whether a delivery whose ID already started the workflow (within the last 1,000 deliveries and 24 hours) is answered with 200 without starting it again. Only a published workflow remembers deliveries.',
	},
];
