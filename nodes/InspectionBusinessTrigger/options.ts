/**
 * The trigger's settings as a poll reads them, complete once read: every
 * default is applied here, the one place (the editor's description shows the
 * same values, from OPTION_DEFAULTS). Version 1 kept every setting in the
 * Options collection; version 2 shows the moments' settings beside the events
 * they belong to.
 */
export const OPTION_DEFAULTS = {
	/** How far before the last change seen each poll starts asking (the API documents a lag). */
	overlapMinutes: 5,
	emitExisting: false,
	startingHours: 24,
	endedHours: 24,
	/** An Ended moment more late than this is skipped: a review request days late does more harm than good. */
	endedLateHours: 48,
	/** A draft, a booking waiting for confirmation or under review may never take place. */
	momentStatuses: ['confirmed'] as readonly string[],
	onlyOnce: true,
};

export type OptionName = keyof typeof OPTION_DEFAULTS;

/** The moments' settings that version 2 shows beside their events, not in Options. */
export const MOMENT_SETTINGS: readonly OptionName[] = [
	'onlyOnce',
	'startingHours',
	'endedHours',
	'endedLateHours',
	'momentStatuses',
];

export interface ChosenOptions {
	overlapMs: number;
	emitExisting: boolean;
	startingHours: number;
	endedHours: number;
	endedLateHours: number;
	momentStatuses: readonly string[];
	onlyOnce: boolean;
	oneItemPerMoment: boolean;
}

const MINUTE = 60_000;

const numberOr = (value: unknown, fallback: number) =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;

/**
 * The settings of a node of `version`: `read(name)` gives a setting as saved,
 * or undefined when the node never saved it (then its default applies).
 */
export function readOptions(version: number, read: (name: OptionName) => unknown): ChosenOptions {
	const statuses = read('momentStatuses');
	return {
		overlapMs: numberOr(read('overlapMinutes'), OPTION_DEFAULTS.overlapMinutes) * MINUTE,
		emitExisting: read('emitExisting') === true,
		startingHours: numberOr(read('startingHours'), OPTION_DEFAULTS.startingHours),
		endedHours: numberOr(read('endedHours'), OPTION_DEFAULTS.endedHours),
		endedLateHours: numberOr(read('endedLateHours'), OPTION_DEFAULTS.endedLateHours),
		momentStatuses: Array.isArray(statuses) ? statuses.map(String) : OPTION_DEFAULTS.momentStatuses,
		onlyOnce: read('onlyOnce') !== false,
		oneItemPerMoment: version >= 2,
	};
}

/** Where a setting of `version` is saved: version 2's moment settings are parameters of their own. */
export const savedIn = (version: number, name: OptionName): 'options' | 'node' =>
	version >= 2 && MOMENT_SETTINGS.includes(name) ? 'node' : 'options';

/** The settings for a poll run outside a node (tests, benches): the defaults, with `chosen` over them. */
export const withDefaults = (chosen: Partial<ChosenOptions> = {}): ChosenOptions => ({
	...readOptions(2, () => undefined),
	...chosen,
});
