import type { IncomingMessage, ServerResponse } from 'node:http';
import {
	actOnInspection,
	createInspection,
	INSPECTION_ACTIONS,
	type InspectionAction,
} from './actions';
import { iso } from './clock';
import { isFaultKind, type OneShotFault } from './faults';
import { parseTimestamp } from '../nodes/shared/rules/formats';
import {
	ApiError,
	badRequest,
	errorReply,
	notFound,
	ok,
	readOptionalJson,
	writeReply,
	type Reply,
} from './http';
import { renderInspection } from './inspections';
import { ORG_IDS } from './keys';
import { SHORT_PAGE_MODES, type ShortPageMode } from './paging';
import { isSeedName, SEED_NAMES } from './seed';
import type { SandboxState } from './state';
import { parseReceiver } from './webhooks';
import { CONTROL_EVENT_ROUTES } from './control-events';
import { CONTROL_MOMENT_ROUTES } from './control-moments';
import { CONTROL_PEOPLE_ROUTES } from './control-people';
import type { ControlRequest, ControlRoute } from './control-route';
import { RAW_RECORD_ROUTES } from './raw-records';

export const CONTROL_PREFIX = '/_sandbox/';

/** Control requests must come from this machine. */
export function isLoopback(address: string | undefined): boolean {
	return (
		address === '127.0.0.1' ||
		address === '::1' ||
		address === '::ffff:127.0.0.1' ||
		/^(::ffff:)?127\./.test(address ?? '')
	);
}

const settingsView = (state: SandboxState) => ({
	short_pages: state.settings.shortPages,
	latency_ms: state.settings.latencyMs,
});

function info(state: SandboxState): Reply {
	const { store } = state;
	const orgs = Object.fromEntries(
		ORG_IDS.map((org) => {
			const inspections = store.list(store.inspections, org);
			let attachments = 0;
			for (const i of inspections) attachments += store.attachments.get(i.id)?.length ?? 0;
			return [
				org,
				{
					contacts: store.list(store.contacts, org).length,
					tags: store.list(store.tags, org).length,
					agencies: store.list(store.agencies, org).length,
					inspections: inspections.length,
					events: store.list(store.events, org).length,
					attachments,
					sample_inspection_ids: inspections.filter((i) => i.sample).map((i) => i.id),
					deleted_inspection_ids: inspections.filter((i) => i.deletedAt !== null).map((i) => i.id),
				},
			];
		}),
	);
	return ok({
		seed: state.seedName,
		now: iso(state.clock.now()),
		rate_limit: state.limiter.perMinute,
		settings: settingsView(state),
		orgs,
	});
}

const integer = (body: Record<string, unknown>, name: string, min: number): number => {
	const value = body[name];
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
		throw badRequest(name, `${name} must be an integer of at least ${min}`);
	return value;
};

function parseQueue(list: unknown): OneShotFault[] {
	if (!Array.isArray(list)) throw badRequest('faults', 'faults must be a list');
	return list.map((item: unknown) => {
		const f = (item ?? {}) as Record<string, unknown>;
		if (!isFaultKind(f.kind)) throw badRequest('faults', `unknown fault kind ${String(f.kind)}`);
		return {
			kind: f.kind,
			method: typeof f.method === 'string' ? f.method : undefined,
			path: typeof f.path === 'string' ? f.path : undefined,
			retryAfter: typeof f.retry_after === 'number' ? f.retry_after : undefined,
			delayMs: typeof f.delay_ms === 'number' ? f.delay_ms : undefined,
		};
	});
}

function setFaults({ state, body }: ControlRequest): Reply {
	const probabilities = (body.probabilities ?? {}) as Record<string, unknown>;
	for (const [kind, p] of Object.entries(probabilities)) {
		if (!isFaultKind(kind) || typeof p !== 'number' || p < 0 || p > 1)
			throw badRequest('probabilities', `bad probability for ${kind}`);
	}
	if (Object.values(probabilities).reduce((a: number, b) => a + (b as number), 0) > 1)
		throw badRequest('probabilities', 'probabilities add up to more than 1');
	state.faults.configure({
		probabilities: probabilities as Record<string, number>,
		...(body.slow_ms !== undefined ? { slowMs: integer(body, 'slow_ms', 0) } : {}),
	});
	return ok(state.faults.settings);
}

function settings({ state, body }: ControlRequest): Reply {
	if (body.short_pages !== undefined) {
		if (!SHORT_PAGE_MODES.includes(body.short_pages as ShortPageMode))
			throw badRequest('short_pages', `short_pages must be one of ${SHORT_PAGE_MODES.join(', ')}`);
		state.settings.shortPages = body.short_pages as ShortPageMode;
	}
	if (body.latency_ms !== undefined) state.settings.latencyMs = integer(body, 'latency_ms', 0);
	return ok(settingsView(state));
}

const clock = (state: SandboxState) =>
	ok({ now: iso(state.clock.now()), offset_ms: state.clock.offset });

const ROUTES: ControlRoute[] = [
	['GET', /^info$/, ({ state }) => info(state)],
	[
		'POST',
		/^reset$/,
		({ state, body }) => {
			const seed = body.seed ?? state.seedName;
			if (!isSeedName(seed)) throw badRequest('seed', `seed must be ${SEED_NAMES}`);
			state.reset(seed);
			return info(state);
		},
	],
	['GET', /^clock$/, ({ state }) => clock(state)],
	[
		'POST',
		/^clock$/,
		({ state, body }) => {
			const ms = typeof body.now === 'string' ? parseTimestamp(body.now) : null;
			if (ms === null) throw badRequest('now', 'now must be an ISO 8601 date-time');
			state.clock.set(ms);
			return clock(state);
		},
	],
	[
		'POST',
		/^clock\/advance$/,
		({ state, body }) => {
			state.clock.advance(integer(body, 'ms', 0));
			return clock(state);
		},
	],
	[
		'POST',
		/^inspections$/,
		({ state, body, render }) => ok(renderInspection(render, createInspection(state, body)), 201),
	],
	...CONTROL_MOMENT_ROUTES,
	[
		'POST',
		/^inspections\/([^/]+)\/([a-z]+)$/,
		({ state, body, params: [id, action], render }) => {
			if (!INSPECTION_ACTIONS.includes(action as InspectionAction))
				throw notFound('action', action, null);
			return ok(
				renderInspection(render, actOnInspection(state, id, action as InspectionAction, body)),
			);
		},
	],
	...CONTROL_EVENT_ROUTES,
	...CONTROL_PEOPLE_ROUTES,
	...RAW_RECORD_ROUTES,
	[
		'POST',
		/^webhooks$/,
		({ state, body }) => ok(state.webhooks.register(parseReceiver(body)), 201),
	],
	['GET', /^webhooks$/, ({ state }) => ok({ data: [...state.webhooks.receivers.values()] })],
	[
		'GET',
		/^webhooks\/deliveries$/,
		({ state }) => ok({ count: state.webhooks.attempts.length, data: state.webhooks.attempts }),
	],
	[
		'DELETE',
		/^webhooks\/([^/]+)$/,
		({ state, params: [id] }) => {
			if (!state.webhooks.receivers.delete(id)) throw notFound('webhook receiver', id, null);
			return ok({ deleted: id });
		},
	],
	[
		'GET',
		/^requests$/,
		({ state, search }) =>
			ok(
				state.log.list({
					method: search.get('method') ?? undefined,
					pathPrefix: search.get('path_prefix') ?? undefined,
				}),
			),
	],
	[
		'DELETE',
		/^requests$/,
		({ state }) => {
			state.log.clear();
			return ok({ count: 0, data: [] });
		},
	],
	['GET', /^faults$/, ({ state }) => ok(state.faults.settings)],
	['POST', /^faults$/, setFaults],
	[
		'POST',
		/^faults\/queue$/,
		({ state, body }) => {
			state.faults.settings.queue.push(...parseQueue(body.faults));
			return ok(state.faults.settings);
		},
	],
	[
		'DELETE',
		/^faults$/,
		({ state }) => {
			state.faults.clear();
			return ok(state.faults.settings);
		},
	],
	[
		'POST',
		/^rate-limit$/,
		({ state, body }) => {
			state.limiter.perMinute = integer(body, 'per_minute', 1);
			state.limiter.clear();
			return ok({ per_minute: state.limiter.perMinute });
		},
	],
	['POST', /^settings$/, settings],
	[
		'GET',
		/^emails$/,
		({ state }) => ok({ count: state.store.emails.length, data: state.store.emails }),
	],
];

/** Serves /_sandbox/…: loopback callers only, no key. */
export async function handleControl(
	state: SandboxState,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	try {
		if (!isLoopback(req.socket.remoteAddress)) {
			throw new ApiError(403, 'forbidden', 'The control API answers loopback callers only');
		}
		const path = url.pathname.slice(CONTROL_PREFIX.length);
		for (const [method, pattern, handler] of ROUTES) {
			const m = pattern.exec(path);
			if (!m || method !== req.method) continue;
			const body = await readOptionalJson(req);
			const render = { state, origin: `http://${req.headers.host ?? 'localhost'}` };
			return writeReply(
				res,
				handler({
					state,
					body,
					params: m.slice(1).map(decodeURIComponent),
					search: url.searchParams,
					render,
				}),
			);
		}
		throw new ApiError(404, 'not_found', `No control endpoint ${req.method} ${url.pathname}`);
	} catch (error) {
		if (!(error instanceof ApiError)) console.error('sandbox control: unexpected error', error);
		writeReply(
			res,
			errorReply(
				error instanceof ApiError ? error : new ApiError(500, 'internal_error', String(error)),
			),
		);
	}
}
