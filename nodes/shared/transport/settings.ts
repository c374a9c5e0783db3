import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../endpoints';
import { RETRY } from './retry';
import type { N8nContext } from './types';

export const CREDENTIAL_TYPE = 'inspectionBusinessApi';

/** What the transport needs from the credential: read once per call, or once per list walk. */
export interface ApiSettings {
	apiKey: string;
	/** Without a trailing slash or a trailing /v1 (every endpoint path starts with /v1). */
	baseUrl: string;
	requestsPerMinute: number;
	/** How long one request keeps waiting out 429s (the credential's Wait for Rate Limit). */
	rateLimitDeadlineMs: number;
}

/**
 * The URLs the key may travel to: https, or plain http to this machine (the
 * sandbox, a local proxy). Tested on the text as typed, so the node and the
 * credential test (an n8n expression, which has no URL parser) decide alike.
 */
const ALLOWED_URL = /^(https:\/\/|http:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?(\/|$))/i;

/**
 * What a Base URL may end with and still mean the API root: `/`, `/v1`, `/v1/`.
 * A run of slashes is only tried from its first slash (the lookbehind), so a
 * long run fails in linear time, not once per slash (the plain `(\/v1)?\/*$`
 * took seconds on 40,000 slashes). It runs in the credential test's
 * expression too, hence a pattern and not code.
 */
export const API_ROOT_SUFFIX = /(?:\/v1|(?<!\/))\/*$/i;

/** Why the key may not be sent to `raw` (the credential's words), or undefined when it may. */
export function refusedUrlReason(raw: string): string | undefined {
	const typed = raw.trim();
	if (ALLOWED_URL.test(typed)) return undefined;
	return /^http:/i.test(typed)
		? 'Base URL: plain http is refused; use https. Plain http is accepted only for localhost, 127.0.0.0/8 and [::1].'
		: `Base URL: "${typed}" must start with https://, e.g. https://api.example.com`;
}

/**
 * The key must never travel unencrypted, so plain http is refused unless the
 * host is this machine.
 */
export function checkedUrl(node: INode, raw: string, what: string): URL {
	let url: URL;
	try {
		url = new URL(raw.trim());
	} catch {
		throw new NodeOperationError(node, `The ${what} "${raw}" is not a valid URL`, {
			description: 'Use a full address such as https://api.example.com',
		});
	}
	const allowed = ALLOWED_URL.test(raw.trim());
	if (allowed && (url.protocol === 'https:' || url.protocol === 'http:')) return url;
	if (url.protocol === 'http:') {
		throw new NodeOperationError(node, `The ${what} must use https, not plain http`, {
			description:
				'Plain http would expose the API key and your data on the network. It is accepted only for loopback hosts (localhost, 127.0.0.0/8, [::1]), such as the local sandbox.',
		});
	}
	throw new NodeOperationError(node, `The ${what} must start with https://`, {
		description: `"${url.protocol}" is not supported`,
	});
}

export async function apiSettings(this: N8nContext): Promise<ApiSettings> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey.trim() : '';
	const node = this.getNode();
	if (!apiKey) {
		throw new NodeOperationError(node, 'The credential has no API key', {
			description: "Paste the key created in the account's API-access area into the credential",
		});
	}
	const url = checkedUrl(node, String(credentials.baseUrl ?? ''), 'Base URL');
	const path = url.pathname.replace(API_ROOT_SUFFIX, '');
	const rate = Number(credentials.requestsPerMinute);
	const waitMinutes = Number(credentials.rateLimitWaitMinutes);
	return {
		apiKey,
		baseUrl: `${url.origin}${path}`,
		requestsPerMinute: Number.isFinite(rate) && rate >= 1 ? Math.floor(rate) : LIMITS.ratePerMinute,
		rateLimitDeadlineMs:
			Number.isFinite(waitMinutes) && waitMinutes > 0
				? waitMinutes * 60_000
				: RETRY.rateLimitDeadlineMs,
	};
}
