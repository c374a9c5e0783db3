/**
 * The polling trigger's properties: Events, made from the event catalog, the
 * moments' settings (version 2: beside the events they belong to, shown only
 * when such an event is selected; version 1: in Options), and Options. Their
 * defaults are options.ts's.
 */
import type { INodeProperties } from 'n8n-workflow';

import { INSPECTION_STATUSES } from '../shared/endpoints';
import { isCanceledStatus } from '../shared/inspectionFacts';
import { EVENT_ROWS, eventsWith, ONCE_OPTIONAL_EVENTS } from './catalog';
import { MOMENT_SETTINGS, OPTION_DEFAULTS, type OptionName } from './options';

/** Which changes the trigger reports; its option names are also the canvas subtitle. */
export const EVENTS_PROPERTY: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: [],
	description:
		'What to be told about. Each item carries event, the full record, previous (what the trigger last saw of it) and changes (what changed, before and after).',
	options: [...EVENT_ROWS]
		.sort((a, b) => a.label.localeCompare(b.label))
		.map((row) => ({
			name: row.label,
			value: row.value,
			...(row.action === undefined ? {} : { action: row.action }),
			description: row.description,
		})),
};

// The community lint wants a boolean or list default written as such: those are written here
// again, and test/triggers/options.test.ts holds them equal to OPTION_DEFAULTS.
const {
	endedHours: ENDED_HOURS,
	endedLateHours: ENDED_LATE_HOURS,
	overlapMinutes: OVERLAP_MINUTES,
	startingHours: STARTING_HOURS,
} = OPTION_DEFAULTS;

const STARTING = eventsWith('beforeStart');
const ENDED = eventsWith('afterEnd');
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Every setting, once; `shownWith`: the events it belongs to (version 2 shows it only with them). */
const SETTINGS: Array<INodeProperties & { name: OptionName; shownWith?: string[] }> = [
	{
		displayName: 'Only Trigger Once',
		name: 'onlyOnce',
		type: 'boolean',
		default: true,
		description:
			'Whether Confirmed, Report Published, Paid, Agreements Signed and the paid-and-signed moments come at most once per inspection, so a client never gets the same message twice. Turn off to be told each time it happens again, such as a new payment after a refund.',
		shownWith: ONCE_OPTIONAL_EVENTS,
	},
	{
		displayName: 'Hours Before Inspection',
		name: 'startingHours',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 2160 },
		default: STARTING_HOURS,
		description:
			'For Inspection Starting Soon: how many hours before the scheduled time the reminder comes. None goes out once the inspection has begun.',
		shownWith: STARTING,
	},
	{
		displayName: 'Hours After Inspection Ended',
		name: 'endedHours',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 2160 },
		default: ENDED_HOURS,
		description: 'For Inspection Ended: how many hours after the inspection ended it comes',
		shownWith: ENDED,
	},
	{
		displayName: 'Skip Ended Moments Later Than (Hours)',
		name: 'endedLateHours',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 8760 },
		default: ENDED_LATE_HOURS,
		description:
			'An Inspection Ended that comes this many hours late (n8n was off, the workflow unpublished) is skipped, not sent: a review request days late does more harm than good. 0 sends every late one.',
		shownWith: ENDED,
	},
	{
		displayName: 'Inspection Statuses for Starting and Ended',
		name: 'momentStatuses',
		type: 'multiOptions',
		options: INSPECTION_STATUSES.filter((status) => !isCanceledStatus(status)).map((status) => ({
			name: capitalised(status),
			value: status,
		})),
		default: ['confirmed'],
		description:
			'Which inspections get Starting Soon and Ended. Confirmed only by default: a draft or a booking not yet confirmed may never take place. Canceled and deleted inspections never do.',
		shownWith: [...STARTING, ...ENDED],
	},
	{
		displayName: 'Emit Existing Records on First Poll',
		name: 'emitExisting',
		type: 'boolean',
		default: false,
		description:
			'Whether the first poll emits every record that already exists (event contact.existing, inspection.existing, inspection_event.existing or attachment.existing) instead of only taking a baseline',
	},
	{
		displayName: 'Overlap (Minutes)',
		name: 'overlapMinutes',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1440 },
		default: OVERLAP_MINUTES,
		description:
			'How far before the last change seen each poll starts asking, so changes the API shows late are not missed. Repeats are recognised and not emitted again.',
	},
];

/** A setting as n8n reads it: without the events it is shown with. */
function property(setting: (typeof SETTINGS)[number]): INodeProperties {
	const copy: Partial<typeof setting> = { ...setting };
	delete copy.shownWith;
	return copy as INodeProperties;
}
const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

/** Version 1: every setting in Options, each shown when its events are selected. */
const OPTIONS_V1: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	displayOptions: { show: { '@version': [1] } },
	options: SETTINGS.map((setting) => ({
		...property(setting),
		...(setting.shownWith ? { displayOptions: { show: { '/events': setting.shownWith } } } : {}),
	})).sort(byName),
};

/** Version 2: the moments' settings beside their events; the rest in Options. */
const MOMENTS_V2: INodeProperties[] = SETTINGS.filter((s) => MOMENT_SETTINGS.includes(s.name)).map(
	(setting) => ({
		...property(setting),
		displayOptions: { show: { '@version': [2], events: setting.shownWith } },
	}),
);
const OPTIONS_V2: INodeProperties = {
	...OPTIONS_V1,
	displayOptions: { show: { '@version': [2] } },
	options: SETTINGS.filter((s) => !MOMENT_SETTINGS.includes(s.name))
		.map(property)
		.sort(byName),
};

export const TRIGGER_PROPERTIES: INodeProperties[] = [
	EVENTS_PROPERTY,
	...MOMENTS_V2,
	OPTIONS_V2,
	OPTIONS_V1,
];
