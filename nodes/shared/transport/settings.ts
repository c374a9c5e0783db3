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

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The key must never travel unencrypted, so plain http is refused unless the
 * host is this machine (the sandbox, a local proxy).
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
	const loopback = LOOPBACK_HOST.test(url.hostname);
	if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return url;
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
	const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '');
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
