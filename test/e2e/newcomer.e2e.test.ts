/**
 * The README's Start here, followed in a real browser against the sandbox, step by step as
 * written: the package in Settings → Community nodes (the global setup installed the packed
 * package as a community package, as an install from the editor does), the credential created
 * and tested in the editor (a wrong key, an address without the API, then the right ones),
 * Contact → Get Many run once, the polling trigger published, a change made with the README's
 * own curl command, and its execution opened with its item; then the webhook trigger of step 6:
 * its Production URL registered with the sandbox by the README's command, one delivery, its
 * execution. Then Try it's first example, as the demo imports it: the accounting row published,
 * a part payment that runs it once (a row for the amount received) and the rest that runs it
 * again, with the README's commands. That example polls every 15 seconds here, not every minute as
 * shipped: step 5 has already waited for n8n's minute, and four of its polls are waited for here.
 *
 * It runs against an n8n of its own, as a newcomer's is: the owner, the package, nothing else.
 *
 * Each step fails when a label, menu or message that the step names in bold is not on screen
 * during it (bold inside "(on n8n 1.x …)" is for that line only). Screenshots go to
 * .artifacts/e2e/newcomer/; with UPDATE_DOCS_IMAGES=1 (`npm run screenshots`) the README's pictures
 * go to docs/images/, and a video of the whole walk to .artifacts/listing/start-here.mp4.
 * @long: waits minutes for n8n's polls and its editor (test/sequencer.js starts it early)
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_KEYS } from '../../sandbox/index';
import { IMAGES } from '../../scripts/screenshots';
import { LOCAL_OWNER } from '../../scripts/n8n-rest';
import { loadExamples, SANDBOX_CREDENTIAL, sandboxCredential } from '../../scripts/workflows';
import { PACKAGE_DIR } from '../../scripts/package-tarball';
import { cleanEnv, run, waitFor } from '../../scripts/processes';
import { Editor } from './support/editor';
import { PollWatch } from './support/polls';
import { ensureFfmpeg, ScreenRecording } from './support/recording';
import { useN8n } from './support/instance';
import { polledEvery15Seconds } from './workflows/build';
import { ARTIFACTS_DIR } from './support/state';

const MINUTE = 60_000;
const instance = useN8n('newcomer', { template: 'fresh', ui: true });
const screenshots = path.join(ARTIFACTS_DIR, 'newcomer');
/** The demo's sandbox address, which the README's commands use. */
const DEMO_SANDBOX = 'http://127.0.0.1:4010';
/** The name n8n gave the credential step 3 creates (read from its dialog). */
let credentialName = '';
const WEBHOOK_SECRET = 'start-here-secret-4d1f';

interface StartStep {
	number: number;
	/** The labels, menus and messages the step writes in bold, whitespace collapsed. */
	labels: string[];
	/** Its shell commands, continuation lines joined. */
	commands: string[];
	text: string;
}

/** A step's shell commands (continuation lines joined) and bold labels, from its text. */
function readStep(number: number, text: string): StartStep {
	const commands = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
		match[1].replace(/\\\n\s*/g, '').trim(),
	);
	const prose = text.replace(/```[\s\S]*?```/g, '').replace(/\(on n8n\s+1\.x[^)]*\)/g, '');
	const labels = [...prose.matchAll(/\*\*([^*]+)\*\*/g)].map((match) =>
		match[1].replace(/\s+/g, ' ').trim(),
	);
	return { number, labels: [...new Set(labels)], commands, text };
}

/** The numbered steps of the README's `## Start here`. */
function startHereSteps(readme: string): StartStep[] {
	const start = readme.indexOf('\n## Start here\n');
	if (start < 0) throw new Error('The README has no "## Start here" section');
	const end = readme.indexOf('\n## ', start + 1);
	const parts = readme.slice(start, end < 0 ? undefined : end).split(/^(\d+)\. /m);
	const steps: StartStep[] = [];
	// A step is its first line and the indented or blank lines after it.
	for (let index = 1; index < parts.length; index += 2)
		steps.push(readStep(Number(parts[index]), parts[index + 1].split(/\n(?=\S)/)[0]));
	return steps;
}

/**
 * The README's Try it, its first example (the accounting row): from "Publish **…**" to the next
 * "Publish", its bold labels and commands. Numbered 7: it follows Start here's six steps.
 */
function tryItAccounting(readme: string): StartStep {
	const section = readme.slice(readme.indexOf('\n### Try it without an account\n'));
	const start = section.indexOf('\nPublish **');
	const end = section.indexOf('\nPublish **', start + 1);
	if (start < 0 || end < 0) throw new Error('Try it has no two examples to publish');
	return readStep(7, section.slice(start, end));
}

const readmeText = readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
const steps = startHereSteps(readmeText);
const tryIt = tryItAccounting(readmeText);
const step = (number: number) => {
	const found = steps.find((candidate) => candidate.number === number);
	if (!found) throw new Error(`Start here has no step ${number}`);
	return found;
};

let editor: Editor;

/** One step's walk: which of its bold labels have been on screen so far, and where. */
class StepWatch {
	private readonly seen = new Map<string, string>();
	private shots = 0;

	constructor(readonly step: StartStep) {}

	/** Notes the step's labels on screen now, and keeps a screenshot of the moment. */
	async look(moment: string): Promise<void> {
		const text = await editor.screenText();
		for (const label of this.step.labels)
			if (!this.seen.has(label) && text.includes(label)) this.seen.set(label, moment);
		await editor.screenshot(
			`step${this.step.number}-${String(++this.shots).padStart(2, '0')}-${moment}`,
		);
	}

	/** Waits until `label` (one of the step's) is on screen; fails naming it. */
	async waitForLabel(label: string, timeoutMs = MINUTE): Promise<void> {
		expect(this.step.labels).toContain(label);
		await waitFor(
			`"${label}" on screen (step ${this.step.number})`,
			async () => (await editor.screenText()).includes(label) || undefined,
			{ timeoutMs, intervalMs: 500 },
		);
	}

	unseen(): string[] {
		return this.step.labels.filter((label) => !this.seen.has(label));
	}
}

/**
 * Runs one of the README's commands against this run's sandbox, with its `<…>` placeholders
 * filled, and returns what it prints. The README's commands aim at the demo's sandbox: a curl
 * call to its control API, or `npm run sandbox -- …`, given this run's sandbox with `--url`.
 */
async function runReadmeCommand(command: string, fill: Record<string, string> = {}) {
	let line = command;
	for (const [placeholder, value] of Object.entries(fill))
		line = line.split(`<${placeholder}>`).join(value);
	expect(line).not.toMatch(/<[A-Z][^>]*>/);
	line = line.startsWith('npm run sandbox -- ')
		? `${line} --url ${instance.sandboxUrl}`
		: `${line.split(DEMO_SANDBOX).join(instance.sandboxUrl)} --fail-with-body --silent --show-error`;
	const { stdout } = await run('sh', ['-c', line], {
		cwd: PACKAGE_DIR,
		env: cleanEnv(),
		timeoutMs: 2 * MINUTE,
	});
	return stdout;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** Keeps a screenshot as one of the README's pictures, when asked (UPDATE_DOCS_IMAGES=1). */
async function picture(name: string): Promise<void> {
	// Without n8n's passing notices ("Credential saved"), which would cover the picture.
	for (const close of await editor.page.locator('.el-notification__closeBtn:visible').all())
		await close.click().catch(() => undefined);
	await editor.page
		.locator('.el-notification:visible')
		.first()
		.waitFor({ state: 'hidden' })
		.catch(() => undefined);
	const file = await editor.screenshot(name);
	if (process.env.UPDATE_DOCS_IMAGES === '1') copyFileSync(file, path.join(IMAGES, `${name}.png`));
}

/** The README names each picture it shows; the test takes exactly those. */
function readmePicture(number: number): string {
	const match = /docs\/images\/([\w-]+)\.png/.exec(step(number).text);
	if (!match) throw new Error(`Start here step ${number} shows no picture`);
	return match[1];
}

const workflowIdOf = (url: string) => /\/workflow\/([^/?#]+)/.exec(url)?.[1] ?? '';

async function waitPublished(workflowId: string): Promise<void> {
	await waitFor(
		`workflow ${workflowId} published`,
		async () => {
			const status = await instance.rest.rest<{ status: string }>(
				'GET',
				`/rest/workflows/${workflowId}/publication-status`,
			);
			if (status.status === 'failed' || status.status === 'partial')
				throw new Error(`n8n reports the publication ${status.status}`);
			return status.status === 'published' || undefined;
		},
		{ timeoutMs: 2 * MINUTE, intervalMs: 1000 },
	);
}

/** What each + menu entry opens: the sign that its click was taken. */
const PLUS_MENU_OPENS = {
	'New workflow': '[data-test-id=canvas-plus-button]',
	'New credential': '[data-test-id=new-credential-type-select]',
} as const;

/** Opens the + menu at the top of the sidebar (on every page of n8n) and picks `item`. */
async function fromPlusMenu(watch: StepWatch, item: keyof typeof PLUS_MENU_OPENS) {
	const { page } = editor;
	await page.goto(`${instance.url}/home/workflows`);
	await page.locator('[data-test-id=universal-add]').click();
	const entry = page.getByText(item, { exact: true });
	await entry.waitFor();
	await watch.look('plus-menu');
	await entry.click();
	// A click while the workflows list is still rendering is lost and leaves the menu open; a
	// person clicks the entry again. A slow page that took the click just loads (2 minutes at most).
	const opened = page.locator(PLUS_MENU_OPENS[item]).first();
	let clicked = Date.now();
	await waitFor(
		`${item} to open from the + menu`,
		async () => {
			if (await opened.isVisible()) return true;
			if (Date.now() - clicked > 15_000 && (await entry.isVisible())) {
				clicked = Date.now();
				await entry.click({ timeout: 5_000 }).catch(() => undefined);
			}
			return undefined;
		},
		{ timeoutMs: 2 * MINUTE, intervalMs: 1_000 },
	);
}

/** A new workflow's empty canvas, from the + menu. */
async function createWorkflow(watch: StepWatch): Promise<void> {
	const { page } = editor;
	await fromPlusMenu(watch, 'New workflow');
	await watch.look('new-workflow');
	await page.click('[data-test-id=canvas-plus-button]');
	await page.locator('[data-test-id=node-creator-search-bar]').waitFor();
}

/** Searches the node creator and picks `name`, then `item` among what it offers. */
async function pickFromCreator(watch: StepWatch, search: string, name: string, item: string) {
	const { page } = editor;
	const entry = (text: string) =>
		page.locator('[data-test-id=node-creator-item-name]', {
			hasText: new RegExp(`^\\s*${text}\\s*$`),
		});
	await page.fill('[data-test-id=node-creator-search-bar]', search);
	await entry(name).first().waitFor();
	await watch.look(`creator-${search.replace(/\W+/g, '-').toLowerCase()}`);
	await entry(name).first().click();
	await entry(item).first().waitFor();
	await watch.look(`creator-${name.replace(/\W+/g, '-').toLowerCase()}`);
	await entry(item).first().click();
	await page.locator('[data-test-id=ndv] [data-test-id=node-parameters]').waitFor();
}

/** Publishes the open workflow through the Publish button and its dialog. */
async function publish(watch: StepWatch): Promise<string> {
	const { page } = editor;
	const button = page.locator('[data-test-id=workflow-open-publish-modal-button]');
	await watch.look('before-publish');
	await button.click();
	await page.locator('[data-test-id=workflow-publish-button]').waitFor();
	await watch.look('publish-dialog');
	await page.locator('[data-test-id=workflow-publish-button]').click();
	await button.filter({ hasText: /^\s*Published\s*$/ }).waitFor({ timeout: 2 * MINUTE });
	const workflowId = workflowIdOf(page.url());
	await waitPublished(workflowId);
	const gotIt = page.getByRole('button', { name: 'Got it' });
	await gotIt.waitFor();
	await watch.look('published');
	await gotIt.click();
	await gotIt.waitFor({ state: 'hidden' });
	return workflowId;
}

/**
 * Opens the workflow's Executions tab, waits for a finished run, opens its trigger node and waits
 * until its output shows each of `showing`.
 */
async function openFirstExecution(
	watch: StepWatch,
	workflowId: string,
	timeoutMs: number,
	showing: string[],
) {
	const { page } = editor;
	await page.click('[data-test-id=radio-button-executions]');
	await page.locator('[data-test-id=executions-sidebar]').waitFor();
	await watch.look('executions-tab');
	// The tab refreshes itself ("Auto refresh"); the REST check only bounds the wait.
	await waitFor(
		`an execution of workflow ${workflowId}`,
		async () => ((await instance.rest.executions(workflowId)).length > 0 ? true : undefined),
		{ timeoutMs, intervalMs: 2000 },
	);
	const card = page.locator('[data-test-id^=execution-details-]').first();
	await card.waitFor({ timeout: MINUTE });
	const checklist = page.locator('[data-test-id=suggested-actions-close]');
	if (await checklist.isVisible()) await checklist.click();
	await card.click();
	await page
		.locator('[data-test-id=execution-preview-host] [data-test-id=canvas-node]')
		.first()
		.waitFor();
	await watch.look('execution');
	await page
		.locator('[data-test-id=execution-preview-host] [data-test-id=canvas-node]')
		.first()
		.dblclick();
	const output = page.locator('[data-test-id=ndv] [data-test-id=output-panel]');
	await output.waitFor();
	for (const text of showing) await output.getByText(text).first().waitFor();
}

/** `npm run screenshots` also records the walk: the video n8n's verification review asks for. */
const LISTING_VIDEO = path.join(PACKAGE_DIR, '.artifacts', 'listing', 'start-here.mp4');
let recording: ScreenRecording | undefined;

beforeAll(async () => {
	mkdirSync(screenshots, { recursive: true });
	mkdirSync(IMAGES, { recursive: true });
	editor = await Editor.open(instance.url, screenshots);
	if (process.env.UPDATE_DOCS_IMAGES === '1') {
		await ensureFfmpeg();
		recording = await ScreenRecording.start(editor.page);
	}
	await editor.signIn(LOCAL_OWNER);
}, 10 * MINUTE);

// What the screen showed at the end of each test: the last picture of a failed step.
afterEach(async () => {
	const name = expect.getState().currentTestName ?? 'test';
	await editor?.screenshot(`end-${name.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => undefined);
});

afterAll(async () => {
	if (recording) {
		const seconds = await recording.save(LISTING_VIDEO);
		process.stderr.write(`[newcomer] ${LISTING_VIDEO}: ${Math.round(seconds)} s\n`);
	}
	await editor?.close();
}, 5 * MINUTE);

it('Start here has at most six numbered steps, each naming what the editor shows', () => {
	expect(steps.map((candidate) => candidate.number)).toEqual([1, 2, 3, 4, 5, 6]);
	for (const number of [1, 3, 4, 5, 6]) expect(step(number).labels.length).toBeGreaterThan(0);
});

it('step 1: the package is listed in Settings → Community nodes, where Install offers the form', async () => {
	const watch = new StepWatch(step(1));
	const { page } = editor;
	await page.goto(`${instance.url}/settings/community-nodes`);
	await page.getByText('n8n-nodes-inspection-business').first().waitFor();
	await watch.look('community-nodes');
	await picture(readmePicture(1));
	await page.getByRole('button', { name: 'Install' }).first().click();
	await page.locator('[data-test-id=package-name-input]').waitFor();
	await watch.look('install-dialog');
	await page.keyboard.press('Escape');
	expect(watch.unseen()).toEqual([]);
});

it("step 2: the demo's key is the sandbox's", () => {
	expect(step(2).text).toContain(`\`${SANDBOX_KEYS.acmeOwner}\``);
	expect(step(2).text).toContain(`\`${DEMO_SANDBOX}\``);
});

it(
	'step 3: the credential, created in the editor, names a wrong key and a wrong address, then passes; Get many contacts runs',
	async () => {
		const watch = new StepWatch(step(3));
		const { page } = editor;
		await fromPlusMenu(watch, 'New credential');
		await page.locator('[data-test-id=new-credential-type-select]').click();
		await page.keyboard.type('Inspection Business');
		const type = page.locator('.el-select-dropdown__item:visible', {
			hasText: /^\s*Inspection Business API\s*$/,
		});
		await type.waitFor();
		await watch.look('credential-type');
		await type.click();
		await watch.look('credential-type-picked');
		await page.locator('[data-test-id=new-credential-type-button]').click();
		const modal = page.locator('[data-test-id=editCredential-modal]');
		const key = modal.locator('[data-test-id=parameter-input-apiKey] input');
		const baseUrl = modal.locator('[data-test-id=parameter-input-baseUrl] input');
		await key.waitFor();
		await watch.look('credential-form');

		const trySave = async (apiKey: string, url: string, expected: string, moment: string) => {
			await editor.saveCredentialDialog(modal, [
				[key, apiKey],
				[baseUrl, url],
			]);
			const more = modal.getByText('More details', { exact: true });
			const answered = await waitFor(
				`the credential test's answer "${expected}"`,
				async () =>
					(await editor.screenText()).includes(expected)
						? 'shown'
						: (await more.isVisible())
							? 'folded'
							: undefined,
				{ timeoutMs: MINUTE, intervalMs: 500 },
			);
			if (answered === 'folded') {
				// The reason sits behind "More details", as on a newcomer's screen.
				await watch.look(`${moment}-folded`);
				await more.click();
				await watch.waitForLabel(expected);
			}
			await watch.look(moment);
		};
		const [wrongKey, wrongAddress] = step(3)
			.labels.filter((label) => /HTTP 40[14]/.test(label))
			.sort();
		expect(wrongKey).toMatch(/HTTP 401/);
		expect(wrongAddress).toMatch(/HTTP 404/);
		await trySave('ib_not_a_key', instance.sandboxUrl, wrongKey, 'wrong-key');
		await trySave(
			SANDBOX_KEYS.acmeOwner,
			`${instance.sandboxUrl}/not-the-api`,
			wrongAddress,
			'wrong-address',
		);
		await trySave(
			SANDBOX_KEYS.acmeOwner,
			instance.sandboxUrl,
			'Connection tested successfully',
			'tested',
		);
		credentialName = (
			await modal
				.locator('[data-test-id=credential-name] [data-test-id=inline-edit-preview]')
				.innerText()
		).trim();
		expect(credentialName).toMatch(/^Inspection Business account/);
		await picture(readmePicture(3));
		await page.keyboard.press('Escape');
		await modal.waitFor({ state: 'hidden' });

		// Contact → Get Many, once, from a Manual Trigger.
		await createWorkflow(watch);
		await page.getByText('Trigger manually', { exact: true }).waitFor();
		await watch.look('first-step');
		await page.getByText('Trigger manually', { exact: true }).click();
		await page.locator('[data-test-id=canvas-node]').first().waitFor();
		if (await page.locator('[data-test-id=ndv]').isVisible()) await editor.closeNdv();
		await page.click('[data-test-id=node-creator-plus-button]');
		await pickFromCreator(watch, 'Inspection Business', 'Inspection Business', 'Get many contacts');
		await editor.pickCredential(credentialName);
		await watch.look('get-many-contacts');
		await page.locator('[data-test-id=ndv] [data-test-id=node-execute-button]').click();
		const count = page.locator('[data-test-id=ndv] [data-test-id=ndv-items-count]');
		await count.filter({ hasText: /\d+ items?/ }).waitFor({ timeout: MINUTE });
		await watch.look('contacts-read');
		expect(await page.locator('[data-test-id=ndv] [data-test-id=node-error-message]').count()).toBe(
			0,
		);
		expect(await count.innerText()).toMatch(/50 items/);
		await editor.closeNdv();
		expect(watch.unseen()).toEqual([]);
	},
	6 * MINUTE,
);

let pollWorkflowId = '';

it(
	'step 4: the polling trigger, on contact created, is published',
	async () => {
		const watch = new StepWatch(step(4));
		const { page } = editor;
		await createWorkflow(watch);
		await pickFromCreator(
			watch,
			'Inspection Business',
			'Inspection Business',
			'On contact created',
		);
		await editor.pickCredential(credentialName);
		await watch.look('trigger-panel');
		await editor.closeNdv();
		pollWorkflowId = await publish(watch);
		expect(pollWorkflowId).not.toBe('');
		await page.locator('[data-test-id=canvas-node]').first().waitFor();
		expect(watch.unseen()).toEqual([]);
	},
	5 * MINUTE,
);

it(
	"step 5: the README's change in the sandbox comes through as one execution with its item",
	async () => {
		const watch = new StepWatch(step(5));
		expect(pollWorkflowId).not.toBe('');
		const [command] = step(5).commands;
		// The command prints the new contact (curl) or its id (npm run sandbox).
		const contactId = UUID.exec(await runReadmeCommand(command))?.[0];
		expect(contactId).toBeDefined();
		// "Within two minutes": one poll a minute; three allow for a loaded machine.
		await openFirstExecution(watch, pollWorkflowId, 3 * MINUTE, ['contact.created', contactId!]);
		await watch.look('execution-item');
		await picture(readmePicture(5));
		await editor.closeNdv();
		const executions = await instance.rest.executions(pollWorkflowId);
		expect(executions).toHaveLength(1);
		expect(watch.unseen()).toEqual([]);
	},
	6 * MINUTE,
);

it(
	"step 6: the webhook trigger's Production URL, registered with the README's command, takes one delivery",
	async () => {
		const watch = new StepWatch(step(6));
		const { page } = editor;
		await createWorkflow(watch);
		await pickFromCreator(
			watch,
			'Inspection Business',
			'Inspection Business Webhook',
			'On contact changed',
		);
		await watch.look('webhook-panel');
		// Its credential: the secret. A newcomer has no webhook credential yet, so the panel offers
		// "Connect to Inspection Business Webhook" where a list of credentials would be.
		await page
			.locator('[data-test-id=ndv]')
			.getByRole('button', { name: /^\s*Connect to Inspection Business Webhook/ })
			.click();
		const modal = page.locator('[data-test-id=editCredential-modal]');
		const secret = modal.locator('[data-test-id=parameter-input-secret] input');
		await secret.waitFor();
		await watch.look('secret-form');
		await editor.saveCredentialDialog(modal, [[secret, WEBHOOK_SECRET]]);
		// Created from the node, a credential that passes its test closes its dialog and is picked.
		await modal.waitFor({ state: 'hidden', timeout: MINUTE });
		const picked = page
			.locator('[data-test-id=ndv] [data-test-id=node-credentials-select] input')
			.first();
		expect(await picked.inputValue()).toMatch(/^Inspection Business Webhook account/);
		const url = await editor.webhookUrl('production');
		expect(url).toMatch(new RegExp(`^${instance.url}/webhook/`));
		await watch.look('production-url');
		await editor.closeNdv();
		const workflowId = await publish(watch);

		const [register, ...rest6] = step(6).commands;
		expect(rest6).toEqual([]);
		await runReadmeCommand(register, { 'Production URL': url, Secret: WEBHOOK_SECRET });
		const receiver = (await instance.control.webhooks()).find((candidate) => candidate.url === url);
		expect(receiver).toBeDefined();
		const [change] = step(5).commands;
		await runReadmeCommand(change);
		await openFirstExecution(watch, workflowId, 2 * MINUTE, ['contact.changed']);
		await watch.look('delivery-item');
		await editor.closeNdv();
		const deliveries = (await instance.control.deliveries()).data.filter(
			(attempt) => attempt.receiver_id === receiver!.id,
		);
		expect(deliveries.map((attempt) => [attempt.event, attempt.status])).toEqual([
			['contact.changed', 200],
		]);
		expect(await instance.rest.executions(workflowId)).toHaveLength(1);
		expect(watch.unseen()).toEqual([]);
	},
	6 * MINUTE,
);

/** What `npm run demo` imports for the accounting example: the demo's credential, and the example. */
async function importAccountingExample(name: string): Promise<string> {
	const { type, data } = sandboxCredential(instance.sandboxUrl);
	const credential = await instance.rest.rest<{ id: string }>('POST', '/rest/credentials', {
		name: SANDBOX_CREDENTIAL.name,
		type,
		data,
	});
	const example = loadExamples().find((workflow) => workflow.name.startsWith(name));
	if (!example) throw new Error(`No example is named "${name}"`);
	// Polled every 15 seconds (the file's comment says why).
	const {
		name: fullName,
		connections,
		settings,
		nodes: exampleNodes,
	} = polledEvery15Seconds(example);
	const nodes = exampleNodes.map((node) =>
		node.credentials
			? { ...node, credentials: { [type]: { id: credential.id, name: SANDBOX_CREDENTIAL.name } } }
			: node,
	);
	const created = await instance.rest.rest<{ id: string }>('POST', '/rest/workflows', {
		name: fullName,
		nodes,
		connections,
		settings,
	});
	return created.id;
}

it(
	'Try it: the accounting example, published as the README says, runs once for a part payment and once more for the rest',
	async () => {
		const watch = new StepWatch(tryIt);
		const { page } = editor;
		const [exampleName] = tryIt.labels;
		expect(tryIt.commands).toEqual(['npm run sandbox -- pay-part', 'npm run sandbox -- pay']);
		const [partly, fully] = tryIt.commands;
		const imported = await importAccountingExample(exampleName);
		await page.goto(`${instance.url}/workflow/${imported}`);
		await page.locator('[data-test-id=canvas-node]').first().waitFor();
		await watch.look('example');
		const workflowId = await publish(watch);
		expect(workflowId).toBe(imported);
		// "Wait a minute" (here 15 s): the trigger's first poll notes where the account stands. It reads
		// inspections; step 4's trigger, with the same key, reads contacts.
		const polls = () =>
			PollWatch.start(
				instance.control,
				instance.rest,
				workflowId,
				SANDBOX_KEYS.acmeOwner,
				'/v1/inspections',
			);
		await (await polls()).ended(1);

		await runReadmeCommand(partly);
		// "Within two minutes": one poll a minute; three allow for a loaded machine.
		await openFirstExecution(watch, workflowId, 3 * MINUTE, ['inspection.payment_received']);
		await watch.look('execution-item');
		await editor.closeNdv();
		await (await polls()).ended(1);
		expect(
			(await instance.rest.executions(workflowId)).map((execution) => execution.status),
		).toEqual(['success']);

		// "Paying the rest makes a second."
		await runReadmeCommand(fully);
		await waitFor(
			'a second execution',
			async () => ((await instance.rest.executions(workflowId)).length >= 2 ? true : undefined),
			{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
		);
		await (await polls()).ended(1);
		const executions = await instance.rest.executions(workflowId);
		expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		expect(watch.unseen()).toEqual([]);
	},
	10 * MINUTE,
);
