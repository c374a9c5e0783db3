/**
 * The tables of docs/polling-trigger.md that the code defines: the events (from
 * the event catalog, as the editor lists them) and the watched fields.
 *
 *   npx tsx scripts/events-doc.ts    # rewrites the tables between their markers
 *
 * test/docs.test.ts fails when the committed tables differ from what this makes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { EVENT_ROWS } from '../nodes/InspectionBusinessTrigger/catalog';
import { WATCHED_FIELDS } from '../nodes/InspectionBusinessTrigger/judge';

export const TRIGGER_DOC = path.join(__dirname, '..', 'docs', 'polling-trigger.md');

const RESOURCE_NAMES = { contacts: 'Contact', inspections: 'Inspection', events: 'Appointment' };

function table(header: string[], rows: string[][]): string {
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
	const line = (cells: string[]) =>
		`| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
	return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function eventsTable(): string {
	const rows = [...EVENT_ROWS]
		.sort((a, b) => a.label.localeCompare(b.label))
		.map((row) => [row.label, `\`${row.value}\``, row.description.replace(/\|/g, '\\|')]);
	return table(['Event', '`event`', 'What it means'], rows);
}

export function watchedFieldsTable(): string {
	const rows = Object.entries(RESOURCE_NAMES).map(([resource, name]) => [
		name,
		WATCHED_FIELDS[resource as keyof typeof RESOURCE_NAMES]
			.map((field) => `\`${field.name}\``)
			.join(', '),
	]);
	return table(['Resource', 'Watched fields'], rows);
}

const BLOCKS = {
	events: eventsTable,
	'watched-fields': watchedFieldsTable,
};

/** The page with every generated block replaced by what the code says now. */
export function regenerated(page: string): string {
	let out = page;
	for (const [name, make] of Object.entries(BLOCKS)) {
		const start = `<!-- ${name}:start -->`;
		const end = `<!-- ${name}:end -->`;
		const from = out.indexOf(start);
		const to = out.indexOf(end);
		if (from === -1 || to < from) throw new Error(`${TRIGGER_DOC} lacks ${start} … ${end}`);
		out = `${out.slice(0, from + start.length)}\n\n${make()}\n\n${out.slice(to)}`;
	}
	return out;
}

if (require.main === module) {
	writeFileSync(TRIGGER_DOC, regenerated(readFileSync(TRIGGER_DOC, 'utf8')));
}
