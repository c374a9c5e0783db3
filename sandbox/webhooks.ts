import { createHmac, randomUUID } from 'node:crypto';
import { WEBHOOK_EVENTS } from '../nodes/shared/endpoints';
import { iso, type SandboxClock } from './clock';
import { badRequest } from './http';
import { isOrgId, type OrgId } from './keys';

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Receiver {
	id: string;
	org: OrgId;
	url: string;
	/** null: every event. */
	events: WebhookEvent[] | null;
	/** webhookSecret: the shared secret, sent in `secret_header` and/or used as the HMAC key. */
	secret: string | null;
	secret_header: string | null;
	/** Header carrying the hex HMAC-SHA256 of the raw body, keyed by `secret`. */
	hmac_header: string | null;
	/** Waits before each retry of a non-2xx answer; attempts = 1 + retries. */
	retry_delays_ms: number[];
}

export interface DeliveryAttempt {
	delivery_id: string;
	receiver_id: string;
	event: WebhookEvent;
	record_id: string;
	attempt: number;
	/** The receiver's HTTP status, or null when the request failed. */
	status: number | null;
	error: string | null;
	time: string;
	payload: unknown;
}

const DEFAULT_RETRY_DELAYS_MS = [200, 1000, 3000];
const ATTEMPT_TIMEOUT_MS = 5000;

const optionalString = (body: Record<string, unknown>, name: string): string | null => {
	const value = body[name];
	if (value === undefined || value === null) return null;
	if (typeof value !== 'string' || value === '')
		throw badRequest(name, `${name} must be a non-empty string`);
	return value;
};

export function parseReceiver(body: Record<string, unknown>): Omit<Receiver, 'id'> {
	if (!isOrgId(body.org)) throw badRequest('org', 'org must be acme or globex');
	const url = optionalString(body, 'url');
	if (!url || !/^https?:\/\//.test(url)) throw badRequest('url', 'url must be an http(s) URL');
	let events: WebhookEvent[] | null = null;
	if (body.events !== undefined && body.events !== null) {
		const list = body.events;
		if (
			!Array.isArray(list) ||
			list.some((e) => !(WEBHOOK_EVENTS as readonly unknown[]).includes(e))
		) {
			throw badRequest('events', `events must be a list of ${WEBHOOK_EVENTS.join(', ')}`);
		}
		events = list as WebhookEvent[];
	}
	let delays = DEFAULT_RETRY_DELAYS_MS;
	if (body.retry_delays_ms !== undefined) {
		const list = body.retry_delays_ms;
		if (
			!Array.isArray(list) ||
			list.length > 10 ||
			list.some((d) => !Number.isInteger(d) || d < 0 || d > 60_000)
		) {
			throw badRequest(
				'retry_delays_ms',
				'retry_delays_ms must be up to 10 integers from 0 to 60000',
			);
		}
		delays = list as number[];
	}
	const secret = optionalString(body, 'secret');
	const secretHeader = optionalString(body, 'secret_header');
	const hmacHeader = optionalString(body, 'hmac_header');
	if ((secretHeader || hmacHeader) && !secret)
		throw badRequest('secret', 'secret_header and hmac_header need a secret');
	return {
		org: body.org,
		url,
		events,
		secret,
		secret_header: secretHeader,
		hmac_header: hmacHeader,
		retry_delays_ms: delays,
	};
}

/** Sends webhookPayloadFields payloads to the registered receivers of an organization, retrying non-2xx answers with backoff. */
export class WebhookDispatcher {
	readonly receivers = new Map<string, Receiver>();
	attempts: DeliveryAttempt[] = [];
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inFlight = new Set<AbortController>();

	constructor(private readonly clock: SandboxClock) {}

	register(input: Omit<Receiver, 'id'>): Receiver {
		const receiver = { id: randomUUID(), ...input };
		this.receivers.set(receiver.id, receiver);
		return receiver;
	}

	emit(org: OrgId, event: WebhookEvent, recordId: string): void {
		for (const receiver of this.receivers.values()) {
			if (receiver.org !== org || (receiver.events && !receiver.events.includes(event))) continue;
			const payload = {
				id: randomUUID(),
				event,
				occurred_at: iso(this.clock.now()),
				data: { id: recordId },
			};
			void this.attempt(receiver, payload, 1);
		}
	}

	private async attempt(
		receiver: Receiver,
		payload: { id: string; event: WebhookEvent; data: { id: string } },
		attempt: number,
	) {
		const body = JSON.stringify(payload);
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			'User-Agent': 'inspection-business-sandbox',
		};
		if (receiver.secret && receiver.secret_header)
			headers[receiver.secret_header] = receiver.secret;
		if (receiver.secret && receiver.hmac_header) {
			headers[receiver.hmac_header] = createHmac('sha256', receiver.secret)
				.update(body)
				.digest('hex');
		}
		const controller = new AbortController();
		const timeout = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
		this.inFlight.add(controller);
		let status: number | null = null;
		let error: string | null = null;
		try {
			const res = await fetch(receiver.url, {
				method: 'POST',
				headers,
				body,
				signal: controller.signal,
			});
			status = res.status;
			await res.arrayBuffer();
		} catch (e) {
			error = e instanceof Error ? e.message : String(e);
		} finally {
			clearTimeout(timeout);
			this.inFlight.delete(controller);
		}
		if (!this.receivers.has(receiver.id)) return;
		this.attempts.push({
			delivery_id: payload.id,
			receiver_id: receiver.id,
			event: payload.event,
			record_id: payload.data.id,
			attempt,
			status,
			error,
			time: iso(this.clock.now()),
			payload,
		});
		const delay = receiver.retry_delays_ms[attempt - 1];
		if ((status === null || status < 200 || status > 299) && delay !== undefined) {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				void this.attempt(receiver, payload, attempt + 1);
			}, delay);
			this.timers.add(timer);
		}
	}

	/** Forgets receivers and deliveries and stops pending retries. */
	clear(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const controller of this.inFlight) controller.abort();
		this.receivers.clear();
		this.attempts = [];
	}
}
