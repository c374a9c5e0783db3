import { randomUUID } from 'node:crypto';
import { durationField, existing, timestampField } from './actions';
import type { ControlRoute } from './control-route';
import { badRequest, notFound, ok } from './http';
import { renderEvent } from './inspections';
import type { SandboxState } from './state';
import type { EventRec } from './types';

type Body = Record<string, unknown>;

const textField = (body: Body, name: string, fallback: string | null) => {
	const value = body[name];
	if (value === undefined) return fallback;
	if (value !== null && typeof value !== 'string')
		throw badRequest(name, `${name} must be a string or null`);
	return value;
};

const timeField = (body: Body, name: string, fallback: number | null) =>
	body[name] === undefined ? fallback : body[name] === null ? null : timestampField(body, name);

function inspectorIds(body: Body, fallback: string[]): string[] {
	const value = body.inspector_ids;
	if (value === undefined) return fallback;
	if (!Array.isArray(value) || value.some((id) => typeof id !== 'string'))
		throw badRequest('inspector_ids', 'inspector_ids must be a list of strings');
	return value as string[];
}

/** Applies the fields a body gives (validated first: a 400 changes nothing). */
function applyFields(rec: EventRec, body: Body): void {
	const fields = {
		name: textField(body, 'name', rec.name),
		description: textField(body, 'description', rec.description),
		startAt: timeField(body, 'start_at', rec.startAt),
		endAt: timeField(body, 'end_at', rec.endAt),
		durationHours: durationField(body, rec.durationHours) ?? rec.durationHours,
		inspectorIds: inspectorIds(body, rec.inspectorIds),
	};
	if (body.blocks_calendar !== undefined && typeof body.blocks_calendar !== 'boolean')
		throw badRequest('blocks_calendar', 'blocks_calendar must be a boolean');
	Object.assign(rec, fields, {
		blocksCalendar: (body.blocks_calendar as boolean | undefined) ?? rec.blocksCalendar,
	});
}

function createEvent(state: SandboxState, body: Body): EventRec {
	if (typeof body.inspection_id !== 'string')
		throw badRequest('inspection_id', 'inspection_id must be an inspection id');
	const inspection = existing(state, body.inspection_id);
	const now = state.writeTime();
	const rec: EventRec = {
		org: inspection.org,
		id: randomUUID(),
		inspectionId: inspection.id,
		name: null,
		description: null,
		startAt: null,
		endAt: null,
		durationHours: 1,
		blocksCalendar: true,
		inspectorIds: inspection.inspectors.map((x) => x.id),
		createdAt: now,
		updatedAt: now,
	};
	applyFields(rec, body);
	state.store.events.set(rec.id, rec);
	state.store.changed();
	return rec;
}

/** Control routes for inspection events (appointments): made and moved in the business tools. */
export const CONTROL_EVENT_ROUTES: ControlRoute[] = [
	['POST', /^events$/, ({ state, body }) => ok(renderEvent(createEvent(state, body)), 201)],
	[
		'PATCH',
		/^events\/([^/]+)$/,
		({ state, body, params: [id] }) => {
			const rec = state.store.events.get(id.toLowerCase());
			if (!rec) throw notFound('event', id, null);
			applyFields(rec, body);
			rec.updatedAt = state.writeTime(rec.updatedAt ?? undefined);
			state.store.changed();
			return ok(renderEvent(rec));
		},
	],
];
