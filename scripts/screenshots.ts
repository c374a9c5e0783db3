/**
 * The README's pictures: each example workflow's canvas, and the package in
 * Settings → Community nodes, taken with Debian's chromium from a running demo.
 *
 *   npm run demo                                   # in one terminal
 *   npx tsx scripts/screenshots.ts [editor URL]    # in another; writes docs/images/
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, freshUserDataDir } from './chromium';
import { LOCAL_OWNER } from './n8n-rest';
import { PACKAGE_DIR } from './package-tarball';
import { loadExamples } from './workflows';

const IMAGES = path.join(PACKAGE_DIR, 'docs', 'images');

async function main(baseUrl: string): Promise<void> {
	const profile = freshUserDataDir();
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport: { width: 1280, height: 640 },
	});
	try {
		context.setDefaultTimeout(60_000);
		const page = context.pages()[0] ?? (await context.newPage());
		await page.goto(`${baseUrl}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', LOCAL_OWNER.email);
		await page.fill('input[name=password]', LOCAL_OWNER.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
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
			const file = path.join(IMAGES, `${workflow.id}.png`);
			await page.screenshot({ path: file });
			console.log(file);
		}
		await page.goto(`${baseUrl}/settings/community-nodes`);
		await page.getByText('n8n-nodes-inspection-business').first().waitFor();
		const file = path.join(IMAGES, 'community-nodes.png');
		await page.screenshot({ path: file });
		console.log(file);
	} finally {
		await context.close();
		rmSync(profile, { recursive: true, force: true });
	}
}

main(process.argv[2] ?? 'http://127.0.0.1:5678').catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
