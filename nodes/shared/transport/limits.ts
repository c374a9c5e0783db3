/**
 * Every bound the transport puts on what the API sends, and on how long a
 * request may take, in one place (docs/reliability.md has the same table with
 * the test that proves each). A hostile or broken API (or a proxy in front of
 * it) must not be able to fill n8n's memory, hold an execution or a webhook
 * delivery forever, or keep a walk over pages going: each limit follows from
 * what a real answer, a real account or a real network needs, with room to
 * spare, never from what memory happens to allow.
 *
 * The wait for the rate limit is the credential's Wait for Rate Limit
 * (`ApiSettings.rateLimitDeadlineMs`), not a constant here: the user sets it.
 *
 * The object is read at the moment of use, never copied, so tests shrink the
 * limits with `Object.assign` (test/helpers/limits.ts, `withLimits`) and
 * hostile answers end in milliseconds; nothing in the package changes it.
 */
const MEGABYTE = 1024 * 1024;

export const TRANSPORT_LIMITS: Readonly<{
	answerBytes: number;
	attemptMs: number;
	uploadAttemptMs: number;
	walkPages: number;
	barrenPagesInARow: number;
	refetchBatchMs: number;
}> = {
	/**
	 * The most one answer's body may hold, counted after decompression (gzip,
	 * deflate and br are unpacked on the way in). The largest answer the API
	 * gives is a page of 200 records: the sandbox's page of 200 inspections is
	 * 0.43 MB, its largest record 2.7 kB. 16 MB leaves room for records forty
	 * times larger (long notes), and stays far below V8's longest string
	 * (512 MB), so no answer is ever turned into text too long to make. An
	 * upload's answer is one attachment or contact record.
	 */
	answerBytes: 16 * MEGABYTE,
	/**
	 * How long one attempt of a request without a file may take in all: the
	 * connection, the headers and the whole body, not a wait per byte. A page of
	 * 200 records is a few hundred kB, seconds even on a slow link; an API that
	 * takes a minute is failing.
	 */
	attemptMs: 60_000,
	/** The same for an upload: the largest file (a 25 MB report) at 1 Mbit/s takes under 4 minutes. */
	uploadAttemptMs: 5 * 60_000,
	/**
	 * The pages one walk over a list (Return All, Get by IDs, Create or
	 * Update's walk of the contacts) reads at most, whatever `total` says:
	 * 200,000 records at 200 a page, twice the 100,000 records of one list that
	 * a large account holds (the sandbox's large seed: 50,000 contacts), for
	 * short pages. At 120 requests a minute such a walk takes over 8 minutes.
	 */
	walkPages: 1_000,
	/** Pages in a row without a new record, each with a fresh cursor, before a walk stops: a sane API sends an empty page now and then, never several in a row. */
	barrenPagesInARow: 5,
	/**
	 * How long the webhook trigger's Re-Fetch of one batch of deliveries may
	 * take, waits for the rate limit included. A batch is one request; two
	 * minutes cover a full minute's wait for a free slot and a retry. Deliveries
	 * that arrive meanwhile wait in n8n's memory, so the batch may not hold them
	 * for the ten minutes a request may wait out 429s.
	 */
	refetchBatchMs: 2 * 60_000,
};

/** A duration as the errors say it: "60 seconds", "5 minutes", "300 ms". */
export function duration(ms: number): string {
	const counted = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
	if (ms >= 60_000 && ms % 60_000 === 0) return counted(ms / 60_000, 'minute');
	if (ms >= 1_000 && ms % 1_000 === 0) return counted(ms / 1_000, 'second');
	return `${ms} ms`;
}
