/**
 * The trigger's settings (options.ts): complete once read, each default applied
 * there alone; what the editor shows as a default is the same value; version 2
 * reads the moments' settings beside the events, version 1 from Options.
 */
import type { INodeProperties } from 'n8n-workflow';

import { TRIGGER_PROPERTIES } from '../../nodes/InspectionBusinessTrigger/description';
import {
	OPTION_DEFAULTS,
	type OptionName,
	readOptions,
	savedIn,
} from '../../nodes/InspectionBusinessTrigger/options';

/** Every setting the editor shows for `version`, by name. */
function shown(version: number): Map<string, INodeProperties> {
	const found = new Map<string, INodeProperties>();
	for (const property of TRIGGER_PROPERTIES) {
		const versions = property.displayOptions?.show?.['@version'] as number[] | undefined;
		if (versions && !versions.includes(version)) continue;
		if (property.name === 'options')
			for (const option of property.options as INodeProperties[]) found.set(option.name, option);
		else found.set(property.name, property);
	}
	return found;
}

test.each([1, 2])('version %i shows every setting with the default a poll applies', (version) => {
	const settings = shown(version);
	for (const [name, value] of Object.entries(OPTION_DEFAULTS)) {
		expect(settings.get(name)?.default).toEqual(value);
		const inOptions = (
			TRIGGER_PROPERTIES.find(
				(p) =>
					p.name === 'options' &&
					(p.displayOptions?.show?.['@version'] as number[]).includes(version),
			)!.options as INodeProperties[]
		).some((option) => option.name === name);
		expect(inOptions).toBe(savedIn(version, name as OptionName) === 'options');
	}
});

test('a setting the node never saved takes its default; version 2 gives one item per moment', () => {
	const read = (version: number, saved: Partial<Record<OptionName, unknown>>) =>
		readOptions(version, (name) => saved[name]);
	expect(read(2, {})).toEqual({
		overlapMs: 5 * 60_000,
		emitExisting: false,
		startingHours: 24,
		endedHours: 24,
		endedLateHours: 48,
		momentStatuses: ['confirmed'],
		onlyOnce: true,
		oneItemPerMoment: true,
	});
	expect(read(1, { onlyOnce: false, startingHours: 2, overlapMinutes: 0 })).toMatchObject({
		onlyOnce: false,
		startingHours: 2,
		overlapMs: 0,
		oneItemPerMoment: false,
	});
	// A number the node could not have saved (a hand-edited workflow) is the default, not NaN.
	expect(read(2, { endedHours: 'soon', endedLateHours: -1 })).toMatchObject({
		endedHours: 24,
		endedLateHours: 48,
	});
});
