/**
 * Loaded before every e2e file: long default timeouts. Files run side by side,
 * each against an n8n and a sandbox of its own (support/instance.ts).
 */
jest.setTimeout(10 * 60_000);
