/**
 * Loaded before every e2e file: a test may wait minutes for n8n (its boots, its polls). Files
 * run side by side, each against an n8n and a sandbox of its own (support/instance.ts).
 */
jest.setTimeout(10 * 60_000);
