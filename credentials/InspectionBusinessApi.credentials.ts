import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The credential test resolves its Base URL through this expression. A plain-http
 * URL that is not loopback is swapped for a host under `.invalid` whose name says
 * why, so the test fails before the key could travel unencrypted. The transport
 * enforces the same rule on every request (`checkedUrl` in `nodes/shared/transport/settings.ts`).
 */
const TESTED_BASE_URL =
	'={{ /^https:\\/\\//i.test($credentials.baseUrl.trim()) || /^http:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(\\/|$)/i.test($credentials.baseUrl.trim()) ? $credentials.baseUrl.trim().replace(/\\/+$/, "") : "https://plain-http-refused-use-https.invalid" }}';

export class InspectionBusinessApi implements ICredentialType {
	name = 'inspectionBusinessApi';

	displayName = 'Inspection Business API';

	icon: Icon = {
		light: 'file:../icons/inspection-business.svg',
		dark: 'file:../icons/inspection-business.dark.svg',
	};

	documentationUrl =
		'https://github.com/inspection-business/n8n-nodes-inspection-business#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"Created in the account's API-access area of the business tools; the full key is shown only once",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.com',
			description:
				'The API address of your account, without /v1. Must be https; plain http is accepted only for localhost, 127.0.0.0/8 and [::1].',
		},
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 6000 },
			default: 120,
			description:
				"The key owner's request budget. All executions in this n8n process that use this key share it. Lower it when other tools use keys of the same user.",
		},
		{
			displayName: 'Wait for Rate Limit (Minutes)',
			name: 'rateLimitWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 1440 },
			default: 10,
			description:
				'How long one request keeps waiting while the API answers "too many requests" (for example when other n8n instances use the same key) before the workflow fails. A long Return All keeps going as long as requests get through.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// One request: the smallest page of the tag list.
	test: ICredentialTestRequest = {
		request: {
			baseURL: TESTED_BASE_URL,
			url: '/v1/tags',
			method: 'GET',
			qs: { limit: 1 },
		},
	};
}
