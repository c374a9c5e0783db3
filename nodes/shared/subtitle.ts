import type { INodeProperties } from 'n8n-workflow';

/**
 * The canvas subtitle of a trigger: the selected events by the names the
 * Events list shows ("Inspection Confirmed"), not their values. A value without a name (a free entry) shows as is;
 * `whenEmpty` is shown when nothing is selected.
 */
export function eventsSubtitle(properties: INodeProperties[], whenEmpty = ''): string {
	const events = properties.find((property) => property.name === 'events');
	const names: Record<string, string> = {};
	for (const option of events?.options ?? []) {
		if ('value' in option && typeof option.value === 'string') names[option.value] = option.name;
	}
	const label = `(${JSON.stringify(names)})[event] ?? event`;
	return `={{ $parameter["events"].length ? $parameter["events"].map(event => ${label}).join(", ") : ${JSON.stringify(whenEmpty)} }}`;
}
