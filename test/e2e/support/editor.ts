/**
 * Driving n8n's editor with playwright-core and Debian's chromium: sign in,
 * add nodes through the node creator, pick options in the node details view
 * (NDV) and read which parameters it shows. Selectors are n8n's data-test-ids.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, freshUserDataDir } from '../../../scripts/chromium';
import type { OwnerAccount } from '../../../scripts/n8n-rest';
import { waitFor } from '../../../scripts/processes';

/** Generous: the suite runs other n8n instances and tests beside the browser on 2 cores. */
const UI_TIMEOUT_MS = 60_000;

export class Editor {
	private constructor(
		private readonly context: BrowserContext,
		readonly page: Page,
		private readonly profile: string,
		private readonly baseUrl: string,
		private readonly screenshots: string,
	) {}

	static async open(baseUrl: string, screenshots: string): Promise<Editor> {
		const profile = freshUserDataDir();
		const context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
		});
		context.setDefaultTimeout(UI_TIMEOUT_MS);
		const page = context.pages()[0] ?? (await context.newPage());
		return new Editor(context, page, profile, baseUrl, screenshots);
	}

	async close(): Promise<void> {
		await this.context.close();
		rmSync(this.profile, { recursive: true, force: true });
	}

	async screenshot(name: string): Promise<string> {
		const file = path.join(this.screenshots, `${name}.png`);
		await this.page.screenshot({ path: file });
		return file;
	}

	async signIn(owner: OwnerAccount): Promise<void> {
		await this.page.goto(`${this.baseUrl}/signin`);
		await this.page.fill('input[name=emailOrLdapLoginId]', owner.email);
		await this.page.fill('input[name=password]', owner.password);
		await this.page.click('[data-test-id=form-submit-button]');
		await this.page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	}

	/** An empty workflow with a Manual Trigger, so that the node creator offers action nodes. */
	async newWorkflowWithManualTrigger(): Promise<void> {
		await this.page.goto(`${this.baseUrl}/workflow/new`);
		await this.page.click('[data-test-id=canvas-plus-button]');
		await this.search('Manual Trigger');
		await this.page.keyboard.press('Enter');
		await this.page.locator('[data-test-id=canvas-node]').first().waitFor();
		if (await this.page.locator('[data-test-id=ndv]').isVisible()) await this.closeNdv();
	}

	/** Opens the node creator on `nodeName` and returns the names of the actions it lists. */
	async openNodeActions(nodeName: string): Promise<string[]> {
		await this.page.click('[data-test-id=node-creator-plus-button]');
		await this.search(nodeName);
		await this.page
			.locator('[data-test-id=node-creator-item-name]', { hasText: exactly(nodeName) })
			.first()
			.click();
		await this.page
			.locator('[data-test-id=node-creator-category-item]', { hasText: /^Actions/ })
			.waitFor();
		return (
			await this.page.locator('[data-test-id=node-creator-item-name]:visible').allInnerTexts()
		).map((text) => text.trim());
	}

	/** Adds a node by clicking an item the node creator shows; its NDV opens. */
	async pickCreatorItem(name: string): Promise<void> {
		await this.page
			.locator('[data-test-id=node-creator-item-name]', { hasText: exactly(name) })
			.first()
			.click();
		await this.page.locator('[data-test-id=ndv] [data-test-id=node-parameters]').waitFor();
	}

	/** Selects `label` in the NDV's options parameter `name`, and waits until it shows. */
	async selectOption(name: string, label: string): Promise<void> {
		const input = this.page
			.locator(`[data-test-id=ndv] [data-test-id=parameter-input-${name}] input`)
			.first();
		if ((await input.inputValue()) === label) return;
		await this.page.click(`[data-test-id=ndv] [data-test-id=parameter-input-${name}]`);
		const headline = this.page.locator('.option-headline', { hasText: exactly(label) });
		await this.page
			.locator('[data-test-id=parameter-input-item]:visible', { has: headline })
			.click();
		await this.page
			.locator('[data-test-id=parameter-input-item]:visible')
			.first()
			.waitFor({ state: 'hidden' });
		await waitFor(
			`"${label}" in ${name}`,
			async () => (await input.inputValue()) === label || undefined,
			{ timeoutMs: UI_TIMEOUT_MS },
		);
	}

	/**
	 * What the NDV shows: the names of its top-level parameters (from their
	 * `parameter-input-<name>` ids) and, per collection (by label), the labels of
	 * the options its "Add …" control offers. A collection with one option has a
	 * button that adds it at once: its label is then read from the added field.
	 */
	async shownParameters(
		screenshotPrefix?: string,
	): Promise<{ parameters: string[]; collections: Record<string, string[]> }> {
		const root = this.page.locator('[data-test-id=ndv] [data-test-id=node-parameters]');
		// A parameter's input is the element `parameter-input-<name>` directly under its `parameter-input`
		// wrapper; ids such as `parameter-input-field` further in belong to the input's own parts.
		const ids = await root
			.locator('[data-test-id^="parameter-input-"]:visible')
			.evaluateAll((elements) =>
				elements
					.filter(
						(element) =>
							element.parentElement?.closest('[data-test-id]')?.getAttribute('data-test-id') ===
							'parameter-input',
					)
					.map((element) => element.getAttribute('data-test-id') ?? ''),
			);
		// A resource locator is marked `resource-locator-<name>` instead.
		const locators = await root
			.locator('[data-test-id^="resource-locator-"]:visible')
			.evaluateAll((elements) =>
				elements
					.map((element) => element.getAttribute('data-test-id') ?? '')
					.filter((id) => id !== 'resource-locator-dropdown'),
			);
		const parameters = [
			...new Set([
				...ids.map((id) => id.slice('parameter-input-'.length)),
				...locators.map((id) => id.slice('resource-locator-'.length)),
			]),
		];
		const collections: Record<string, string[]> = {};
		const items = root.locator('[data-test-id=parameter-item]:visible', {
			has: this.page.locator('[data-test-id=collection-parameter-add]'),
		});
		const labels = await items.evaluateAll((elements) =>
			elements.map(
				(element) => element.querySelector('[data-test-id=input-label]')?.textContent?.trim() ?? '',
			),
		);
		for (const label of labels) {
			// Found by its label, not by its Add control, which is gone once every option is added.
			const item = root
				.locator('[data-test-id=parameter-item]', {
					has: this.page.locator('[data-test-id=input-label]', { hasText: exactly(label) }),
				})
				.first();
			const nested = item.locator('[data-test-id=parameter-item]');
			const before = await nested.count();
			await item.locator('[data-test-id=collection-parameter-add]').click();
			const options = this.page.locator('[data-test-id=collection-parameter-option]:visible');
			const opened = await waitFor(
				`the options of ${label}`,
				async () =>
					(await options.count()) > 0
						? 'dropdown'
						: (await nested.count()) > before
							? 'added'
							: undefined,
				{ timeoutMs: UI_TIMEOUT_MS },
			);
			if (opened === 'added') {
				collections[label] = [
					firstLine(await nested.last().locator('[data-test-id=input-label]').first().innerText()),
				];
				continue;
			}
			collections[label] = (await options.allInnerTexts()).map((text) => text.trim());
			if (screenshotPrefix)
				await this.screenshot(`${screenshotPrefix}-${label.toLowerCase().replace(/\W+/g, '-')}`);
			await this.page.keyboard.press('Escape');
			await options.first().waitFor({ state: 'hidden' });
		}
		return { parameters, collections };
	}

	/** Opens a saved workflow and the NDV of one of its nodes. */
	async openNode(workflowId: string, nodeName: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/workflow/${workflowId}`);
		await this.page.locator(`[data-test-id=canvas-node][data-node-name="${nodeName}"]`).dblclick();
		await this.page.locator('[data-test-id=ndv] [data-test-id=node-parameters]').waitFor();
	}

	/** The webhook URL the NDV's "Webhook URLs" section shows for `kind` (it opens the section). */
	async webhookUrl(kind: 'test' | 'production'): Promise<string> {
		const section = this.page.locator('[data-test-id=ndv] .webhooks');
		if (!(await section.locator(`[data-test-id=radio-button-${kind}]`).isVisible()))
			await section.locator('.headline').click();
		await section.locator(`[data-test-id=radio-button-${kind}]`).click();
		await section.locator(`[data-test-id=radio-button-${kind}][aria-checked=true]`).waitFor();
		return (await section.locator('.webhook-url').innerText()).trim();
	}

	/**
	 * What the screen shows, as one line: the visible text, and the value of each visible
	 * input (a select shows its choice in one, such as a trigger's "Every Minute").
	 */
	async screenText(): Promise<string> {
		const text = await this.page.locator('body').innerText();
		const values = await this.page
			.locator('input:visible, textarea:visible')
			.evaluateAll((elements) =>
				elements.map((element) => (element as unknown as { value: string }).value),
			);
		return [text, ...values].join('\n').replace(/\s+/g, ' ');
	}

	/** Picks the credential named `name` in the open NDV's credential select. */
	async pickCredential(name: string): Promise<void> {
		const select = this.page.locator('[data-test-id=ndv] [data-test-id=node-credentials-select]');
		const input = select.locator('input').first();
		if ((await input.inputValue()) === name) return;
		await select.click();
		await this.page
			.locator('[data-test-id^=node-credentials-select-item-]:visible', {
				has: this.page.getByText(name, { exact: true }),
			})
			.first()
			.click();
		await waitFor(
			`credential "${name}" picked`,
			async () => (await input.inputValue()) === name || undefined,
			{ timeoutMs: UI_TIMEOUT_MS },
		);
	}

	/**
	 * Fills a credential dialog's fields and presses its Save until n8n sends the save. Save
	 * while n8n still holds a required field as empty sends nothing and leaves the dialog open
	 * (measured: no request in 5 s). On a loaded machine the typing can reach n8n after the
	 * click, or be lost while the dialog is still opening (seen once in CI: the dialog stayed
	 * open for a minute). A person would see that nothing happened and type or press Save again;
	 * so does this, and it fails if no save is sent within a minute of tries.
	 */
	async saveCredentialDialog(
		modal: Locator,
		fields: ReadonlyArray<readonly [Locator, string]>,
	): Promise<void> {
		const isSave = (method: string, url: string) =>
			(method === 'POST' || method === 'PATCH') &&
			/\/rest\/credentials(\/[^/]+)?$/.test(new URL(url).pathname);
		await waitFor(
			`the credential dialog's save with its ${fields.length} field(s) filled`,
			async () => {
				for (const [input, value] of fields)
					if ((await input.inputValue()) !== value) await input.fill(value);
				const sent = this.page
					.waitForRequest((request) => isSave(request.method(), request.url()), {
						timeout: 10_000,
					})
					.then(() => true)
					.catch(() => undefined);
				await modal.locator('[data-test-id=credential-save-button]').click();
				return await sent;
			},
			{ timeoutMs: 2 * UI_TIMEOUT_MS, intervalMs: 100 },
		);
	}

	/** The NDV's whole text (notices, hints, URLs). */
	async ndvText(): Promise<string> {
		return await this.page.locator('[data-test-id=ndv]').innerText();
	}

	async closeNdv(): Promise<void> {
		await this.page.click('[data-test-id=ndv-close-button]');
		await this.page.locator('[data-test-id=ndv]').waitFor({ state: 'hidden' });
	}

	private async search(text: string): Promise<void> {
		await this.page.fill('[data-test-id=node-creator-search-bar]', text);
		await this.page
			.locator('[data-test-id=node-creator-item-name]', { hasText: exactly(text) })
			.first()
			.waitFor();
	}
}

function firstLine(text: string): string {
	return text.trim().split('\n')[0].trim();
}

function exactly(text: string): RegExp {
	return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}
