import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The shared secret of the webhook trigger, kept in n8n's encrypted credential store so it is not
 * part of the workflow's JSON. The API publishes no webhook signature, so a secret the user chooses
 * and registers with the URL is what proves a delivery came from the account (webhookSecret).
 * Where it travels (header or query) stays a node setting: that is not secret. No request is ever
 * made with it, so there is nothing to authenticate or test.
 */
export class InspectionBusinessWebhookApi implements ICredentialType {
	name = 'inspectionBusinessWebhookApi';

	displayName = 'Inspection Business Webhook API';

	icon: Icon = {
		light: 'file:../icons/inspection-business.svg',
		dark: 'file:../icons/inspection-business.dark.svg',
	};

	documentationUrl =
		'https://github.com/inspection-business/n8n-nodes-inspection-business#inspection-business-webhook-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"A secret you choose and also enter in the account's business tools, with the webhook URL. A request without it is answered with 401 and starts nothing. It also keys the optional HMAC signature.",
		},
	];
}
