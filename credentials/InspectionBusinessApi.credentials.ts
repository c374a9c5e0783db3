import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { API_ROOT_SUFFIX, refusedUrlReason } from '../nodes/shared/transport/request';

/** The API root the credential test asks, without a trailing `/` or `/v1` (as the node strips them). */
const TESTED_BASE_URL = `={{ $credentials.baseUrl.trim().replace(${API_ROOT_SUFFIX}, "") }}`;

/** An absolute URL (the HTTP Request node's), which axios uses instead of the base URL. */
const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:\/\//i;

/**
 * Where a request goes: its absolute `url`, the HTTP Request node's `uri` (it
 * sends n8n's older request options), else the base URL it is relative to.
 */
function requestTarget(options: IHttpRequestOptions): string {
	const { uri } = options as { uri?: unknown };
	if (ABSOLUTE_URL.test(options.url ?? '')) return options.url;
	if (typeof uri === 'string' && ABSOLUTE_URL.test(uri)) return uri;
	return String(options.baseURL ?? options.url);
}

/** A host name as n8n's allowed-domains check compares it: lower case, without a final dot. */
const domainOf = (name: string) => {
	const lower = name.trim().toLowerCase();
	return lower.endsWith('.') ? lower.slice(0, -1) : lower;
};

/** The host name of a URL as n8n's allowed-domains check compares it, or undefined when it has none. */
function hostOf(url: string): string | undefined {
	try {
		return domainOf(new URL(url.trim()).hostname) || undefined;
	} catch {
		return undefined;
	}
}

/** Whether n8n's allowed-domains list (`a.com, *.b.com`) lets a request go to `host`, as n8n reads it. */
function listAllows(list: string, host: string): boolean {
	return list
		.split(',')
		.map(domainOf)
		.some((entry) =>
			entry.startsWith('*.') ? entry.length > 2 && host.endsWith(entry.slice(1)) : entry === host,
		);
}

/**
 * The one host the key may go to: the Base URL's. Throws when the request
 * goes elsewhere, or when the caller's allowed domains (the credential's
 * Allowed HTTP Request Domains, for the HTTP Request node) refuse that host.
 */
function apiHostFor(baseUrl: string, target: string, options: IHttpRequestOptions): string {
	const apiHost = hostOf(baseUrl);
	if (apiHost === undefined)
		throw new Error(
			`Base URL: "${baseUrl.trim()}" is not a valid URL, e.g. https://api.example.com`,
		);
	const targetHost = hostOf(target);
	if (targetHost !== apiHost)
		throw new Error(
			`The API key is sent only to the Base URL's host (${apiHost}); this request goes to ${targetHost ?? 'an address without a host'}`,
		);
	const { allowedDomains } = options;
	if (allowedDomains && allowedDomains.trim() !== '' && !listAllows(allowedDomains, apiHost))
		throw new Error(
			`Domain not allowed: this credential's allowed domains (${allowedDomains}) do not include ${apiHost}`,
		);
	return apiHost;
}

/** What the credential test says when the Base URL answers 2xx, but not as the API does. */
const NOT_THE_API =
	'The Base URL answered, but not as the Inspection Business API: its answer to /v1/tags is not a list of tags (with data and total). Check that the Base URL is the API address of your account (e.g. https://api.example.com), not a website or the address of n8n itself.';

/** A 2xx answer without one of these list-envelope keys is not the API's. */
const ENVELOPE_KEYS = ['data', 'total'];

const TEST_RULES: Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> = [
	{
		type: 'responseCode',
		properties: {
			value: 401,
			message:
				"The API key was not accepted (HTTP 401). Copy the key again from the account's API-access area; a key also stops working when the user who created it is deactivated.",
		},
	},
	{
		type: 'responseCode',
		properties: {
			value: 404,
			message:
				'The Base URL has no Inspection Business API (HTTP 404 for /v1/tags). Use the API address of your account, e.g. https://api.example.com.',
		},
	},
	...ENVELOPE_KEYS.map(
		(key): IAuthenticateRuleResponseSuccessBody => ({
			type: 'responseSuccessBody',
			properties: { key, value: undefined, message: NOT_THE_API },
		}),
	),
];

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
				"The key owner's request budget per minute. Each running n8n counts it on its own: in queue mode the main, every worker and every webhook server pace separately, so set this to the budget divided by how many of them use the key (120 / 2 workers = 60). Lower it too when other tools use keys of the same user.",
		},
		{
			displayName: 'Wait for Rate Limit (Minutes)',
			name: 'rateLimitWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 1440 },
			default: 10,
			description:
				'How long one request keeps waiting for the rate limit (for a free slot of Requests per Minute, and while the API answers "too many requests", for example when other n8n instances use the same key) before the workflow fails. A long Return All keeps going as long as requests get through.',
		},
	];

	/**
	 * Adds the key, unless the request goes to plain http off this machine: then
	 * it throws, so the key never travels unencrypted, whether the request comes
	 * from this package's nodes, the HTTP Request node or the credential test
	 * (which shows the reason). The key goes only to the Base URL's own host,
	 * whatever the caller asked and whatever the credential's Allowed HTTP
	 * Request Domains say: a request to another host is refused here, and n8n's
	 * allowed domains are set to that one host, so a redirect to any other host,
	 * a subdomain included (which a wildcard such as `*.example.com` would let
	 * through, and the redirect library would carry the Authorization header
	 * to), fails before it is sent. The key is not copied onto a redirect to
	 * another origin either (another port of the same host).
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const target = requestTarget(requestOptions);
		const refused = refusedUrlReason(target);
		if (refused !== undefined) throw new Error(refused);
		const apiHost = apiHostFor(String(credentials.baseUrl ?? ''), target, requestOptions);
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.apiKey).trim()}`,
			},
			sendCredentialsOnCrossOriginRedirect: false,
			allowedDomains: apiHost,
		};
	}

	// One request: the smallest page of the tag list. A 2xx is not enough: only an
	// answer in the API's list envelope (`data`, `next_cursor`, `total`) passes, so
	// a Base URL pointing at a website, a proxy's page or n8n itself is refused.
	test: ICredentialTestRequest = {
		request: {
			baseURL: TESTED_BASE_URL,
			url: '/v1/tags',
			method: 'GET',
			qs: { limit: 1 },
		},
		// n8n's type asks for one kind of rule per list; its credential tester reads
		// both kinds from one list (status rules on an error answer, body rules on a
		// 2xx), which test/e2e/credential.e2e.test.ts checks in a real n8n.
		rules: TEST_RULES as IAuthenticateRuleResponseCode[],
	};
}
