/**
 * Run before each unit and heavy file. When `npm test` runs them beside the e2e files
 * (IB_BESIDE_E2E, set by jest.config.js), their worker yields the CPU a little to the e2e
 * files' n8n instances and browsers, whose polls, timeouts and page loads keep time; these
 * files only need CPU, and take it whenever the e2e files wait.
 */
const os = require('node:os');

if (process.env.IB_BESIDE_E2E === '1') {
	try {
		os.setPriority(Math.max(os.getPriority(), 5));
	} catch {
		// A system that refuses is left as it is.
	}
}
