import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultKind, FaultSettings } from './faults';
import type { OrgId } from './keys';
import type { ShortPageMode } from './paging';
import type { LogEntry } from './requestlog';
import type { EmailRec } from './types';
import type { DeliveryAttempt, Receiver, WebhookEvent } from './webhooks';

type Json = Record<string, unknown>;

const CONTROL_ATTEMPTS = 3;
const CONTROL_RETRY_DELAY_MS = 100;

export interface SandboxInfo {
	seed: string;
	now: string;
	rate_limit: number;
	settings: { short_pages: ShortPageMode; latency_ms: number };
	orgs: Record<
		OrgId,
		{
			contacts: number;
			tags: number;
			agencies: number;
			inspections: number;
			events: number;
			attachments: number;
			sample_inspection_ids: string[];
			deleted_inspection_ids: string[];
		}
	>;
}

export interface QueuedFault {
	kind: FaultKind;
	method?: string;
	path?: string;
	retry_after?: number;
	delay_ms?: number;
}

export interface ReceiverInput {
	org: OrgId;
	url: string;
	events?: WebhookEvent[];
	secret?: string;
	secret_header?: string;
	hmac_header?: string;
	retry_delays_ms?: number[];
}

/** A typed client of the sandbox control API (/_sandbox/…), so tests never build control URLs by hand. */
export class SandboxControl {
	constructor(readonly baseUrl: string) {}

	/**
	 * One control call. A call that is idempotent (a read, or one that sets a value
	 * whole) is repeated when its connection drops before an answer, as a pooled
	 * connection can under load; any other call could have been applied, so it
	 * is never repeated.
	 */
	private async call<T>(
		method: string,
		path: string,
		body?: unknown,
		idempotent = method === 'GET',
	): Promise<T> {
		const send = () =>
			fetch(`${this.baseUrl}/_sandbox/${path}`, {
				method,
				headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		let res: Response;
		for (let attempt = 1; ; attempt++) {
			try {
				res = await send();
				break;
			} catch (error) {
				if (!idempotent || attempt >= CONTROL_ATTEMPTS) throw error;
				await sleep(CONTROL_RETRY_DELAY_MS * attempt);
			}
		}
		const text = await res.text();
		if (!res.ok)
			throw new Error(`Sandbox control ${method} ${path} answered ${res.status}: ${text}`);
		return JSON.parse(text) as T;
	}

	info = () => this.call<SandboxInfo>('GET', 'info');
	/** Re-seeds (default: the current seed) and forgets webhook receivers and deliveries. */
	reset = (seed?: 'demo' | 'small' | 'large') =>
		this.call<SandboxInfo>('POST', 'reset', seed ? { seed } : {}, true);

	getClock = () => this.call<{ now: string; offset_ms: number }>('GET', 'clock');
	setClock = (now: string) =>
		this.call<{ now: string; offset_ms: number }>('POST', 'clock', { now }, true);
	advanceClock = (ms: number) =>
		this.call<{ now: string; offset_ms: number }>('POST', 'clock/advance', { ms });

	createInspection = (fields: Json & { org: OrgId }) =>
		this.call<Json>('POST', 'inspections', fields);
	confirmInspection = (id: string) => this.call<Json>('POST', `inspections/${id}/confirm`, {});
	rescheduleInspection = (id: string, scheduledFor: string, durationHours?: number) =>
		this.call<Json>('POST', `inspections/${id}/reschedule`, {
			scheduled_for: scheduledFor,
			duration_hours: durationHours,
		});
	cancelInspection = (id: string) => this.call<Json>('POST', `inspections/${id}/cancel`, {});
	publishReports = (id: string) => this.call<Json>('POST', `inspections/${id}/publish`, {});
	deleteInspection = (id: string) => this.call<Json>('POST', `inspections/${id}/delete`, {});
	/** Pays the quote in full: amount due 0, payment status "paid". */
	payInspection = (id: string) => this.call<Json>('POST', `inspections/${id}/pay`, {});
	/** The business moments' changes (sandbox/control-moments.ts). */
	addPayment = (id: string, amount: number) =>
		this.call<Json>('POST', `inspections/${id}/payment`, { amount });
	/** Lowers what was paid; payment status and amount due follow. */
	refund = (id: string, amount: number) =>
		this.call<Json>('POST', `inspections/${id}/refund`, { amount });
	/** A quote of null leaves what is paid and due as it was. */
	setQuote = (id: string, quote: number | null) =>
		this.call<Json>('PATCH', `inspections/${id}/price`, { quote });
	/** Adds a report, not published yet; the reports' status follows its items. */
	addReport = (id: string, name: string) =>
		this.call<Json>('POST', `inspections/${id}/reports`, { name });
	/** Sets one report's status (draft, pending or published); the reports' status follows. */
	setReportStatus = (id: string, reportId: string, status: 'draft' | 'pending' | 'published') =>
		this.call<Json>('PATCH', `inspections/${id}/reports/${encodeURIComponent(reportId)}`, {
			status,
		});
	addAgreements = (id: string, names: string[]) =>
		this.call<Json>('POST', `inspections/${id}/agreements`, { names });
	signAgreements = (id: string, index?: number) =>
		this.call<Json>('POST', `inspections/${id}/sign`, index === undefined ? {} : { index });
	assignInspector = (id: string, inspector: { id: string; name: string }) =>
		this.call<Json>('POST', `inspections/${id}/inspectors`, inspector);
	removeInspector = (id: string, inspectorId: string) =>
		this.call<Json>('DELETE', `inspections/${id}/inspectors/${encodeURIComponent(inspectorId)}`);
	addService = (
		id: string,
		service: { id: string; name: string; kind?: 'service' | 'add_on'; price?: number },
	) => this.call<Json>('POST', `inspections/${id}/services`, service);
	removeService = (id: string, serviceId: string) =>
		this.call<Json>('DELETE', `inspections/${id}/services/${encodeURIComponent(serviceId)}`);
	addContactToInspection = (id: string, contactId: string, role: string) =>
		this.call<Json>('POST', `inspections/${id}/contacts`, { contact_id: contactId, role });

	/** An appointment on an inspection (GET /v1/events); answers it as the API renders it. */
	createEvent = (body: Json & { inspection_id: string }) =>
		this.call<Json & { id: string }>('POST', 'events', body);
	updateEvent = (id: string, body: Json) =>
		this.call<Json & { id: string }>('PATCH', `events/${id}`, body);

	createContact = (org: OrgId, body: Json) => this.call<Json>('POST', 'contacts', { ...body, org });
	updateContact = (id: string, body: Json) => this.call<Json>('PATCH', `contacts/${id}`, body);
	createTag = (org: OrgId, name: string) =>
		this.call<Json & { id: string; name: string }>('POST', 'tags', { org, name });
	updateTag = (id: string, name: string) => this.call<Json>('PATCH', `tags/${id}`, { name });
	createAgency = (org: OrgId, name: string) => this.call<Json>('POST', 'agencies', { org, name });

	addWebhook = (input: ReceiverInput) => this.call<Receiver>('POST', 'webhooks', input);
	webhooks = async () => (await this.call<{ data: Receiver[] }>('GET', 'webhooks')).data;
	removeWebhook = (id: string) => this.call<Json>('DELETE', `webhooks/${id}`);
	deliveries = () =>
		this.call<{ count: number; data: DeliveryAttempt[] }>('GET', 'webhooks/deliveries');

	/** The request log of /v1 and /files requests; filters count only matching entries. */
	requests = (filter: { method?: string; pathPrefix?: string } = {}) => {
		const q = new URLSearchParams();
		if (filter.method) q.set('method', filter.method);
		if (filter.pathPrefix) q.set('path_prefix', filter.pathPrefix);
		return this.call<{ count: number; data: LogEntry[] }>(
			'GET',
			`requests${q.size ? `?${q}` : ''}`,
		);
	};
	clearRequests = () => this.call<Json>('DELETE', 'requests', undefined, true);

	setFaults = (settings: {
		probabilities?: Partial<Record<FaultKind, number>>;
		slow_ms?: number;
	}) => this.call<FaultSettings>('POST', 'faults', settings, true);
	/** One-shot faults, used in order, each on the first request matching its method and path prefix. */
	queueFaults = (...faults: QueuedFault[]) =>
		this.call<FaultSettings>('POST', 'faults/queue', { faults });
	clearFaults = () => this.call<FaultSettings>('DELETE', 'faults', undefined, true);

	/** Also empties every owner's window. */
	setRateLimit = (perMinute: number) =>
		this.call<{ per_minute: number }>('POST', 'rate-limit', { per_minute: perMinute }, true);
	settings = (settings: { short_pages?: ShortPageMode; latency_ms?: number }) =>
		this.call<{ short_pages: ShortPageMode; latency_ms: number }>(
			'POST',
			'settings',
			settings,
			true,
		);
	/** A record served as this JSON text, as it is, on the first page of `list` (sandbox/raw-records.ts). */
	addRawRecord = (
		org: OrgId,
		list: 'contacts' | 'inspections' | 'events' | 'attachments',
		json: string,
	) => this.call<Json>('POST', 'raw-records', { org, list, json });
	clearRawRecords = () => this.call<Json>('DELETE', 'raw-records', undefined, true);
	/** "Automation emails" sent by report uploads. */
	emails = () => this.call<{ count: number; data: EmailRec[] }>('GET', 'emails');
}
