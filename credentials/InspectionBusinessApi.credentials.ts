import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { ALLOWED_URL, API_ROOT_SUFFIX } from '../nodes/shared/transport/settings';

/** Shown by the credential test for a plain-http Base URL that is not this machine. */
export const PLAIN_HTTP_REFUSED =
	'Base URL: plain http is refused; use https (plain http is accepted only for localhost, 127.0.0.0/8 and [::1])';

/** Shown for a Base URL that is neither https nor plain http. */
export const HTTPS_REQUIRED = 'Base URL: it must start with https://, e.g. https://api.example.com';

const typedBaseUrl = '$credentials.baseUrl.trim()';

/**
 * The credential test's Base URL, as an n8n expression built from the node's own
 * URL rules: the API root without `/` or `/v1`, and a refused URL throws, so the
 * test shows why instead of sending the key unencrypted.
 */
const TESTED_BASE_URL = `={{ ${ALLOWED_URL}.test(${typedBaseUrl}) ? ${typedBaseUrl}.replace(${API_ROOT_SUFFIX}, "") : (() => { throw new Error(/^http:/i.test(${typedBaseUrl}) ? ${JSON.stringify(PLAIN_HTTP_REFUSED)} : ${JSON.stringify(HTTPS_REQUIRED)}); })() }}`;

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
