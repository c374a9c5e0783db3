/**
 * The editor, in a real browser: the owner signs in, adds the Inspection
 * Business node, and every resource and operation shows exactly the fields of
 * the endpoint table (none missing, none twice, nothing else). The webhook
 * trigger shows its production URL and the notice to register it. The
 * record pickers are resource locators whose From List reads the sandbox.
 * Screenshots go to .artifacts/e2e/editor/; with UPDATE_DOCS_IMAGES=1 (`npm run screenshots`) the
 * node panel's and the examples' canvases go to docs/images/, the README's pictures.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { allOperations, isControl, operationFields, tableWireFields } from '../support/fieldMap';
import { nodeDescription } from '../../nodes/InspectionBusiness/actions/nodeDescription';
import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { LOCAL_OWNER } from '../../scripts/n8n-rest';
import { EXAMPLE_VIEWPORT, exampleCanvases, IMAGES } from '../../scripts/screenshots';
import { Editor } from './support/editor';
import { useN8n } from './support/instance';
import { ARTIFACTS_DIR } from './support/state';
import { WEBHOOK_TRIGGER, webhookUrl } from './workflows/triggers';

const instance = useN8n('editor', {
	template: 'suite',
	publish: [WEBHOOK_TRIGGER.id],
	ui: true,
});
const screenshots = path.join(ARTIFACTS_DIR, 'editor');
let editor: Editor;

const properties = nodeDescription.properties;
const shownFor = (property: INodeProperties, resource: string, operation?: string) => {
	const show = property.displayOptions?.show ?? {};
	return (
		(show.resource as string[] | undefined)?.includes(resource) === true &&
		(operation === undefined ||
			(show.operation as string[] | undefined)?.includes(operation) === true)
	);
};
const optionName = (property: INodeProperties | undefined, value: string) =>
	(property?.options as INodePropertyOptions[] | undefined)?.find(
		(option) => option.value === value,
	)?.name ?? value;
const resourceName = (resource: string) =>
	optionName(
		properties.find((p) => p.name === 'resource'),
		resource,
	);
const operationName = (resource: string, operation: string) =>
	optionName(
		properties.find((p) => p.name === 'operation' && shownFor(p, resource)),
		operation,
	);

interface Comparison {
	missing: string[];
	duplicated: string[];
	unexpected: string[];
}

/** Which wire fields the NDV shows for the operation, compared with the endpoint table. */
async function compareWithTable(resource: string, operation: string): Promise<Comparison> {
	const fields = operationFields(resource, operation);
	const own = properties.filter((p) => shownFor(p, resource, operation));
	// Options that reveal other fields (an attachment's kind, a download's source): every value is looked at.
	const switches = own.filter(
		(p) => p.type === 'options' && !['sort', 'sortDirection'].includes(p.name),
	);
	const views: Array<Array<[string, string]>> = [[]];
	for (const property of switches) {
		const values = (property.options as INodePropertyOptions[]).map((option): [string, string] => [
			property.name,
			option.name,
		]);
		views.splice(
			0,
			views.length,
			...views.flatMap((view) => values.map((value) => [...view, value])),
		);
	}
	const shown = new Set<string>();
	const duplicated = new Set<string>();
	const unexpected = new Set<string>();
	for (const view of views) {
		for (const [name, label] of view) await editor.selectOption(name, label);
		const { parameters, collections } = await editor.shownParameters(`${resource}-${operation}`);
		const wire: string[] = [];
		for (const name of parameters.filter((p) => p !== 'resource' && p !== 'operation')) {
			// A control inside a collection (Options › Content Type) may show as its own parameter.
			const inCollection = own.some(
				(p) =>
					p.type === 'collection' &&
					(p.options as INodeProperties[]).some((o) => o.name === name && isControl(name)),
			);
			if (!own.some((p) => p.name === name) && !inCollection) unexpected.add(name);
			const field = fields.find((f) => f.parameter === name);
			if (field) wire.push(field.wireName);
		}
		for (const [label, options] of Object.entries(collections)) {
			const collection = own.find((p) => p.type === 'collection' && p.displayName === label);
			for (const option of options) {
				const field = fields.find(
					(f) =>
						collection && f.parameter.startsWith(`${collection.name}.`) && f.displayName === option,
				);
				const control = (collection?.options as INodeProperties[] | undefined)?.some(
					(o) => o.displayName === option && isControl(o.name),
				);
				if (field) wire.push(field.wireName);
				else if (!control) unexpected.add(`${label} › ${option}`);
			}
		}
		wire
			.filter((name, index) => wire.indexOf(name) !== index)
			.forEach((name) => duplicated.add(name));
		wire.forEach((name) => shown.add(name));
	}
	const table = tableWireFields(resource, operation);
	return {
		missing: table.filter((name) => !shown.has(name)).sort(),
		duplicated: [...duplicated].sort(),
		unexpected: [...unexpected, ...[...shown].filter((name) => !table.includes(name))].sort(),
	};
}

beforeAll(async () => {
	mkdirSync(screenshots, { recursive: true });
	editor = await Editor.open(instance.url, screenshots);
	await editor.signIn(LOCAL_OWNER);
	await editor.screenshot('00-signed-in');
}, 2 * 60_000);

afterAll(async () => {
	await editor?.close();
});

it('adds the Inspection Business node, which lists one action per operation', async () => {
	await editor.newWorkflowWithManualTrigger();
	const actions = await editor.openNodeActions('Inspection Business');
	await editor.screenshot('01-node-creator-actions');
	const operations = allOperations();
	for (const { resource, operation } of operations) {
		const property = properties.find((p) => p.name === 'operation' && shownFor(p, resource));
		const action = (property?.options as INodePropertyOptions[]).find(
			(option) => option.value === operation,
		)?.action;
		expect(actions).toContain(action);
	}
	await editor.pickCreatorItem(
		String(
			(
				properties.find((p) => p.name === 'operation' && shownFor(p, 'contact'))
					?.options as INodePropertyOptions[]
			)[0].action,
		),
	);
});

it(
	'shows exactly the endpoint table fields for every resource and operation',
	async () => {
		const report: Record<string, Comparison> = {};
		for (const { resource, operation } of allOperations()) {
			await editor.selectOption('resource', resourceName(resource));
			await editor.selectOption('operation', operationName(resource, operation));
			const comparison = await compareWithTable(resource, operation);
			await editor.screenshot(`${resource}-${operation}`);
			if (
				comparison.missing.length + comparison.duplicated.length + comparison.unexpected.length >
				0
			) {
				report[`${resource}.${operation}`] = comparison;
			}
		}
		expect(report).toEqual({});
	},
	14 * 60_000,
);

it(
	'shows the record pickers as locators (From List, By ID, By URL), listing the sandbox records',
	async () => {
		const { page } = editor;
		await editor.selectOption('resource', resourceName('inspection'));
		await editor.selectOption('operation', operationName('inspection', 'get'));
		const locator = page.locator('[data-test-id=ndv] [data-test-id=resource-locator-id]');
		await locator.waitFor();
		await locator.locator('[data-test-id=rlc-mode-selector]').click();
		const modes = page.locator('.el-select-dropdown__item:visible');
		await modes.first().waitFor();
		// n8n's editor names the list mode itself ("From list").
		expect((await modes.allInnerTexts()).map((text) => text.trim())).toEqual([
			'From list',
			'By ID',
			'By URL',
		]);
		await modes.first().click();
		await locator.locator('[data-test-id=rlc-input]').click();
		// Labelled "address · date · client" (the new node's credential decides the account).
		const label = page.getByText(/ · (\d{4}-\d{2}-\d{2} \d{2}:\d{2}|not scheduled)/).first();
		await label.waitFor();
		expect(await label.innerText()).toMatch(/^.+ · .+/);
		// The README's picture is refreshed on request only, so a test run leaves the clone clean.
		const panel =
			process.env.UPDATE_DOCS_IMAGES === '1'
				? path.join(__dirname, '..', '..', 'docs', 'images')
				: screenshots;
		mkdirSync(panel, { recursive: true });
		await page.screenshot({ path: path.join(panel, 'node-panel-inspection-get.png') });
		await editor.screenshot('locator-inspection-list');
		await page.keyboard.press('Escape');
	},
	3 * 60_000,
);

it("shows the webhook trigger's production URL, with the notice to register it", async () => {
	await editor.openNode(WEBHOOK_TRIGGER.id, WEBHOOK_TRIGGER.node);
	expect(await editor.webhookUrl('production')).toBe(webhookUrl(instance.url));
	const notice = new InspectionBusinessWebhookTrigger().description.properties.find(
		(p) => p.type === 'notice',
	);
	expect(notice?.displayName).toMatch(/Production URL/);
	expect(await editor.ndvText()).toContain(notice!.displayName);
	await editor.screenshot('webhook-trigger');
});

// `npm run screenshots` also refreshes the pictures of the example workflows, which the README's
// Usage shows (this n8n has them imported).
(process.env.UPDATE_DOCS_IMAGES === '1' ? it : it.skip)(
	"the examples' canvases, for the README's Usage",
	async () => {
		const { page } = editor;
		const size = page.viewportSize();
		await page.setViewportSize(EXAMPLE_VIEWPORT);
		try {
			const files = await exampleCanvases(page, instance.url, IMAGES);
			expect(files.length).toBeGreaterThanOrEqual(3);
		} finally {
			if (size) await page.setViewportSize(size);
		}
	},
	5 * 60_000,
);
