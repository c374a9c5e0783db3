/**
 * The README's pictures of the example workflows: each example's canvas, taken with Debian's
 * chromium. `npm run screenshots` regenerates every README picture at once: it runs the
 * newcomer and editor browser checks with UPDATE_DOCS_IMAGES=1, and the newcomer check calls
 * `exampleCanvases` here. From a running demo instead:
 *
 *   npm run demo                                   # in one terminal
 *   npx tsx scripts/screenshots.ts [editor URL]    # in another; writes docs/images/
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, freshUserDataDir } from './chromium';
import { LOCAL_OWNER } from './n8n-rest';
import { PACKAGE_DIR } from './package-tarball';
import { loadExamples } from './workflows';

export const IMAGES = path.join(PACKAGE_DIR, 'docs', 'images');

/** The size of the example pictures: wide and low, as they sit in the README's list. */
export const EXAMPLE_VIEWPORT = { width: 1280, height: 640 };

/**
 * Takes each example's canvas (`<example id>.png` in `dir`) in a signed-in page of size
 * EXAMPLE_VIEWPORT, and returns the files.
 */
export async function exampleCanvases(page: Page, baseUrl: string, dir: string): Promise<string[]> {
	const files: string[] = [];
	for (const workflow of loadExamples()) {
		await page.goto(`${baseUrl}/workflow/${workflow.id}`);
		await page.locator('[data-test-id=canvas-node]').first().waitFor();
		// The editor fits a workflow to the view when it opens it; one step out keeps the lowest
		// nodes clear of the Execute workflow button.
		await page.waitForTimeout(1500);
		await page.locator('[data-test-id=zoom-out-button]').click();
		// Away from the canvas, so no node shows its hover buttons.
		await page.mouse.move(640, 20);
		await page.waitForTimeout(500);
		const file = path.join(dir, `${workflow.id}.png`);
		await page.screenshot({ path: file });
		files.push(file);
	}
	return files;
}

async function main(baseUrl: string): Promise<void> {
	const profile = freshUserDataDir();
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport: EXAMPLE_VIEWPORT,
	});
	try {
		context.setDefaultTimeout(60_000);
		const page = context.pages()[0] ?? (await context.newPage());
		await page.goto(`${baseUrl}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', LOCAL_OWNER.email);
		await page.fill('input[name=password]', LOCAL_OWNER.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
		for (const file of await exampleCanvases(page, baseUrl, IMAGES)) console.log(file);
	} finally {
		await context.close();
		rmSync(profile, { recursive: true, force: true });
	}
}

if (require.main === module) {
	main(process.argv[2] ?? 'http://127.0.0.1:5678').catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
