/**
 * docs/assumptions.md lists the code's assumptions (nodes/shared/assumptions.ts):
 * the same names in the same order, each under its kind, with what is assumed,
 * what the package does and how to check it; the
 * table of old ids covers every name once. And the statements that quote a
 * value of the endpoint table agree with the table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ASSUMPTIONS, type AssumptionName } from '../nodes/shared/assumptions';
import {
	ENDPOINTS,
	type EndpointKey,
	LIMITS,
	SIGNED_LINK_FIELDS,
	WEBHOOK_PAYLOAD_KEYS,
} from '../nodes/shared/endpoints';

const doc = readFileSync(join(__dirname, '..', 'docs', 'assumptions.md'), 'utf8');

const KIND_HEADINGS = {
	project: '## Shared assumptions',
	package: "## The package's own decisions",
} as const;

interface DocumentedAssumption {
	name: string;
	from: 'project' | 'package';
	statement?: string;
	does?: string;
	check?: string;
}

/** The paragraph that starts with `**<label>:**`, as one line. */
function paragraph(section: string, label: string): string | undefined {
	const match = new RegExp(`^\\*\\*${label}:\\*\\* ([^]*?)(?:\\n\\n|\\n?$)`, 'm').exec(section);
	return match?.[1].replace(/\s*\n\s*/g, ' ').trim();
}

/** Each `### \`name\`` entry of the page, with the kind of the `##` section it sits in. */
function documented(markdown: string): DocumentedAssumption[] {
	const entries: DocumentedAssumption[] = [];
	for (const [from, heading] of Object.entries(KIND_HEADINGS) as Array<
		['project' | 'package', string]
	>) {
		const start = markdown.indexOf(`\n${heading}\n`);
		if (start < 0) continue;
		const end = markdown.indexOf('\n## ', start + heading.length + 2);
		const part = markdown.slice(start, end < 0 ? undefined : end);
		for (const section of part.split(/^### /m).slice(1)) {
			entries.push({
				name: /^`(\w+)`/.exec(section)?.[1] ?? section.split('\n')[0],
				from,
				statement: paragraph(section, 'Assumed'),
				does: paragraph(section, 'What the package does'),
				check: paragraph(section, 'Check it on your account'),
			});
		}
	}
	return entries;
}

/** The rows of the old-id table: `| A2 | \`noSingleRecordPath\` |`. */
function oldIds(markdown: string): Array<{ id: string; name: string }> {
	return [...markdown.matchAll(/^\| ([AD]\d+) +\| `(\w+)` +\|$/gm)].map((m) => ({
		id: m[1],
		name: m[2],
	}));
}

const statementOf = (name: AssumptionName): string => ASSUMPTIONS[name].statement;
const queryNames = (endpoint: EndpointKey) => ENDPOINTS[endpoint].query.map((p) => p.name);

describe('docs/assumptions.md', () => {
	const entries = documented(doc);

	it('lists every assumption of the code, in its order and under its kind', () => {
		expect(entries.map(({ name, from }) => ({ name, from }))).toEqual(
			Object.entries(ASSUMPTIONS).map(([name, { from }]) => ({ name, from })),
		);
	});

	it('says for each what is assumed, what the package does and how to check it on an account', () => {
		const missing = entries
			.filter(({ statement, does, check }) => !statement || !does || !check)
			.map(({ name }) => name);
		expect(missing).toEqual([]);
	});

	it('maps the old ids, A1–A20 shared and D1–D13 the package’s own, to each name once', () => {
		const rows = oldIds(doc);
		const expected = (prefix: string, count: number) =>
			Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
		const names = (from: 'project' | 'package') =>
			Object.entries(ASSUMPTIONS)
				.filter(([, a]) => a.from === from)
				.map(([name]) => name);
		const project = rows.filter(({ id }) => id.startsWith('A'));
		const own = rows.filter(({ id }) => id.startsWith('D'));
		expect(project.map(({ id }) => id)).toEqual(expected('A', 20));
		expect(own.map(({ id }) => id)).toEqual(expected('D', names('package').length));
		expect(project.map(({ name }) => name)).toEqual(names('project'));
		expect(own.map(({ name }) => name)).toEqual(names('package'));
	});

	it('the checks catch a missing entry and a wrong kind', () => {
		const dropped = doc.replace(/^### `createAnswers201`$/m, '#### createAnswers201');
		expect(documented(dropped).map((e) => e.name)).not.toContain('createAnswers201');
		const moved = doc.replace(KIND_HEADINGS.package, '## Other');
		expect(documented(moved).filter((e) => e.from === 'package')).toEqual([]);
	});
});

describe('the statements that quote the endpoint table agree with it', () => {
	const backticked = (name: AssumptionName) =>
		[...statementOf(name).matchAll(/`([^`]+)`/g)].map((m) => m[1]);

	it.each([
		['contactStatsPath', 'listContactStats'],
		['eventsPath', 'listEvents'],
	] as const)('%s names the path and every query parameter of %s', (name, endpoint) => {
		const { method, path } = ENDPOINTS[endpoint];
		expect(backticked(name)).toContain(`${method} ${path}`);
		for (const param of queryNames(endpoint)) expect(backticked(name)).toContain(param);
	});

	it('contactStatsPath gives the id limit of the table', () => {
		expect(statementOf('contactStatsPath')).toContain(`(up to ${LIMITS.idsMax})`);
	});

	it('tagAndAgencyParams names exactly the parameters of the tag and agency lists', () => {
		const [tags, agencies] = statementOf('tagAndAgencyParams').split(';');
		const named = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
		expect(named(tags)).toEqual(queryNames('listTags'));
		expect(named(agencies)).toEqual(queryNames('listAgencies'));
	});

	it('inspectionSortFields names the sort fields of the inspection list, in order', () => {
		expect(backticked('inspectionSortFields')).toEqual(ENDPOINTS.listInspections.list.sortFields);
	});

	it('webhookPayloadFields names the event and record id fields in the order they are read', () => {
		const named = backticked('webhookPayloadFields');
		const order = (fields: readonly string[]) => fields.map((field) => named.indexOf(field));
		for (const fields of [WEBHOOK_PAYLOAD_KEYS.event, WEBHOOK_PAYLOAD_KEYS.recordId]) {
			expect(order(fields).every((at) => at >= 0)).toBe(true);
			expect(order(fields)).toEqual([...order(fields)].sort((a, b) => a - b));
		}
	});

	it('signedLinksWithoutKey names every signed-link field and the sandbox’s link lifetime', () => {
		expect(backticked('signedLinksWithoutKey')).toEqual(
			expect.arrayContaining([...SIGNED_LINK_FIELDS]),
		);
		expect(statementOf('signedLinksWithoutKey')).toContain(
			`for ${LIMITS.signedLinkTtlMs / 3_600_000} hour`,
		);
	});

	it('sharedRateBudget gives the rate of the table', () => {
		expect(statementOf('sharedRateBudget')).toContain(`${LIMITS.ratePerMinute} requests a minute`);
	});

	it('attachmentFormFields names every multipart field of the attachment and photo uploads', () => {
		const named = backticked('attachmentFormFields');
		for (const endpoint of ['uploadAttachment', 'uploadContactPhoto'] as const) {
			for (const field of ENDPOINTS[endpoint].body.fields) expect(named).toContain(field.name);
		}
	});
});
