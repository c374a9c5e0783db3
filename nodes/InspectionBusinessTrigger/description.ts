/**
 * The polling trigger's properties: Events, made from the event catalog, and
 * Options. An option that only one kind of event uses shows only when such an
 * event is selected.
 */
import type { INodeProperties } from 'n8n-workflow';

import { INSPECTION_STATUSES } from '../shared/endpoints';
import { isCanceledStatus } from '../shared/inspectionFacts';
import { EVENT_ROWS, eventsWith, ONCE_OPTIONAL_EVENTS } from './catalog';

/** Which changes the trigger reports; its option names are also the canvas subtitle. */
export const EVENTS_PROPERTY: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: [],
	description:
		'Changes to report. Each item carries event, events (all selected events of that change), the full record, previous (what the trigger last saw of it) and changes (the watched fields that changed, each with before and after).',
	options: [...EVENT_ROWS]
		.sort((a, b) => a.label.localeCompare(b.label))
		.map((row) => ({ name: row.label, value: row.value, description: row.description })),
};

const STARTING = eventsWith('beforeStart');
const ENDED = eventsWith('afterEnd');
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

const OPTIONS: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Emit Existing Records on First Poll',
			name: 'emitExisting',
			type: 'boolean',
			default: false,
			description:
				'Whether the first poll emits every record that already exists (event contact.existing, inspection.existing, inspection_event.existing or attachment.existing) instead of only taking a baseline',
		},
		{
			displayName: 'Hours After Inspection Ended',
			name: 'endedHours',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 2160 },
			default: 24,
			description:
				'For Inspection Ended: how many hours after the inspection ended (ends_at, else scheduled time plus duration) it is reported',
			displayOptions: { show: { '/events': ENDED } },
		},
		{
			displayName: 'Hours Before Inspection',
			name: 'startingHours',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 2160 },
			default: 24,
			description:
				'For Inspection Starting: how many hours before the scheduled time it is reported',
			displayOptions: { show: { '/events': STARTING } },
		},
		{
			displayName: 'Inspection Statuses for Starting and Ended',
			name: 'momentStatuses',
			type: 'multiOptions',
			options: INSPECTION_STATUSES.filter((status) => !isCanceledStatus(status)).map((status) => ({
				name: capitalised(status),
				value: status,
			})),
			// A draft, a booking waiting for confirmation or under review may never take place.
			default: ['confirmed'],
			description:
				'Which inspections get Inspection Starting and Inspection Ended. Confirmed only by default: a draft or a booking not yet confirmed may never take place. Canceled and deleted inspections never do.',
			displayOptions: { show: { '/events': [...STARTING, ...ENDED] } },
		},
		{
			displayName: 'Only Trigger Once',
			name: 'onlyOnce',
			type: 'boolean',
			default: true,
			description:
				'Whether Paid, Agreements Signed, Paid and Signed, and Paid and Signed and Published fire at most once per inspection. Turn off to be told again when it happens again, e.g. an add-on paid after the first payment, for accounting.',
			displayOptions: { show: { '/events': ONCE_OPTIONAL_EVENTS } },
		},
		{
			displayName: 'Overlap (Minutes)',
			name: 'overlapMinutes',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1440 },
			default: 5,
			description:
				'How far before the last change seen each poll starts asking, so changes the API shows late are not missed. Repeats are recognised and not emitted again.',
		},
	],
};

export const TRIGGER_PROPERTIES: INodeProperties[] = [EVENTS_PROPERTY, OPTIONS];

const defaultOf = (name: string) => OPTIONS.options!.find((option) => option.name === name)!;

/** The options' defaults as the editor shows them: also a poll's for an option its node never saved. */
export const OPTION_DEFAULTS = {
	overlapMinutes: (defaultOf('overlapMinutes') as INodeProperties).default as number,
	startingHours: (defaultOf('startingHours') as INodeProperties).default as number,
	endedHours: (defaultOf('endedHours') as INodeProperties).default as number,
	momentStatuses: (defaultOf('momentStatuses') as INodeProperties).default as readonly string[],
	onlyOnce: (defaultOf('onlyOnce') as INodeProperties).default as boolean,
};
