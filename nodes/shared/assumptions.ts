/**
 * What the package assumes where the API documentation is silent ("not
 * shown"), each under a name you can search the code for. `project` marks the
 * choices every team on this API shares; `package` marks this package's own
 * decisions where even those are silent. docs/assumptions.md explains each one
 * and how to check it against a real account (a test keeps it equal to this
 * list). The values an assumption governs (paths, parameters, limits) live in
 * the endpoint table, `endpoints.ts`, so each changes in one line there.
 */
interface Assumption {
	/** `project`: shared by everyone building on this API; `package`: this package's own decision. */
	from: 'project' | 'package';
	/** What is assumed, in plain words. */
	statement: string;
}

export const ASSUMPTIONS = {
	baseUrlFromCredential: {
		from: 'project',
		statement:
			'The API has no public address, so the credential asks for a Base URL. The sandbox serves at `http://127.0.0.1:4010`.',
	},
	noSingleRecordPath: {
		from: 'project',
		statement:
			'The API has no path for one record, so Get reads the list with `ids=<id>`; an empty result means not found.',
	},
	createAnswers201: {
		from: 'project',
		statement: 'Creating a contact (`POST /v1/contacts`) answers 201 with the created Contact.',
	},
	updateAnswers200: {
		from: 'project',
		statement:
			'Updating a contact (`PATCH /v1/contacts/{contact_id}`) answers 200 with the updated Contact.',
	},
	unknownIdAnswers404: {
		from: 'project',
		statement: 'An unknown id in a path answers 404.',
	},
	errorBodyShapes: {
		from: 'project',
		statement:
			'An error answer carries `{"error": {"code", "message", "param"}}`; the node also reads a message from `{"message"}`, `{"error": "..."}` and `{"errors": [{"title", "detail"}]}`.',
	},
	retryAfterOptional: {
		from: 'project',
		statement:
			'A 429 answer may carry `Retry-After` in seconds, or no such header; no `X-RateLimit-*` header is relied on.',
	},
	contactStatsPath: {
		from: 'project',
		statement:
			'Contact statistics are listed at `GET /v1/contacts/stats`, which takes `contact_ids` (up to 200), `from` and `to` (inspections scheduled from `from` up to, not including, `to`), `cursor` and `limit`.',
	},
	eventsPath: {
		from: 'project',
		statement:
			'Inspection events are listed at `GET /v1/events`, which takes `inspection_id`, `ids`, `updated_since`, `cursor` and `limit`.',
	},
	tagAndAgencyParams: {
		from: 'project',
		statement:
			'The tag list takes only `cursor` and `limit`; the agency list takes only `ids`, `cursor` and `limit`.',
	},
	updatedSinceInclusive: {
		from: 'project',
		statement:
			'`updated_since` includes a record changed at exactly that time (`updated_at` at or after it), by the server’s clock.',
	},
	cursorBoundToSort: {
		from: 'project',
		statement:
			'A list is ordered by id unless sorted; a cursor works only with the sort it was made with (another sort answers 400); ties under a sort are broken by id.',
	},
	webhooksRegisteredByHand: {
		from: 'project',
		statement:
			'Webhooks are registered by hand in the account’s business tools; the API has no endpoint for them.',
	},
	webhookPayloadFields: {
		from: 'project',
		statement:
			'A webhook delivery may be any JSON. The event name is read from `event`, `type` or `kind`; the record id from the first of `data.id`, `data.inspection_id`, `data.contact_id`, `inspection_id`, `contact_id` and `id`. The top-level `id` is the delivery’s own id whenever the record id came from another field and differs from it; a top-level `id` equal to the record id names the record, and the delivery then has no id.',
	},
	webhookSecret: {
		from: 'project',
		statement:
			'Webhooks have no published signature: a secret the user chooses comes back in a header the user names or in the query, and an HMAC-SHA256 of the raw body may be checked too.',
	},
	signedLinksWithoutKey: {
		from: 'project',
		statement:
			'Signed links (`photo_url`, `url`, `cover_photo_url`) need no credential, so the API key is never sent to them. The sandbox serves them under `/files/` for 1 hour.',
	},
	sharedRateBudget: {
		from: 'project',
		statement: 'All the keys of one user share one budget of 120 requests a minute.',
	},
	agentToolNotMcp: {
		from: 'project',
		statement:
			'The AI-assistant connection (MCP) is not used; AI agents use the node as a tool (`usableAsTool`).',
	},
	photoWritesReturnContact: {
		from: 'project',
		statement: 'Uploading and deleting a contact’s photo answer 200 with the Contact.',
	},
	attachmentFormFields: {
		from: 'project',
		statement:
			'An attachment upload’s multipart fields are `kind`, `file`, `name`, `description` and `internal_only` (`true` or `false`); a photo upload’s field is `file`.',
	},
	inspectionSortFields: {
		from: 'package',
		statement:
			'Inspections sort by their date fields: `scheduled_for`, `ends_at`, `created_at`, `updated_at` and `canceled_at`.',
	},
	cursorBoundToFilters: {
		from: 'package',
		statement:
			'A cursor works only with the filters it was made with, as with its sort; reused with other filters it answers 400 naming `cursor`.',
	},
	queryValueEncoding: {
		from: 'package',
		statement:
			'Query booleans are the words `true` and `false`; a list parameter is repeated (`tag=a&tag=b`).',
	},
	orderOfUnsortedLists: {
		from: 'package',
		statement:
			'Lists without a documented order (tags, agencies, events, contact statistics) are ordered by id; the account-wide attachment list by `updated_at`, newest first, then by `inspection_id` and id.',
	},
	attachmentListsPaginate: {
		from: 'package',
		statement:
			'Both attachment lists, account-wide and per inspection, take `cursor` and `limit`, since every list pages.',
	},
	contactStatsRevenue: {
		from: 'package',
		statement:
			'A contact’s revenue is the sum of `price.quote` over its inspections in the window that are neither canceled nor deleted.',
	},
	sandboxRateWindow: {
		from: 'package',
		statement:
			'The sandbox counts requests in a sliding 60-second window per key owner; its `Retry-After` is the whole seconds until a slot frees.',
	},
	storedFileNames: {
		from: 'package',
		statement:
			'The server stores a cleaned file name: a path is dropped, spaces become underscores, accents lose their marks, only letters, digits, dot, underscore and hyphen stay, leading dots go, and an empty name becomes `file`.',
	},
	deletedInspectionGone: {
		from: 'package',
		statement:
			'A deleted inspection is gone from paths: its attachment list and attachment uploads answer 404, as an unknown id does.',
	},
	attachmentUploadParts: {
		from: 'package',
		statement:
			'`internal_only` on a report upload answers 400 naming it (it is for documents); a document may carry a `name` (by default its file name) and a `description`; any other multipart part answers 400.',
	},
	queryValueChecks: {
		from: 'package',
		statement:
			'Every id in an id list must be a UUID; an empty value, or a repeated parameter that is not a list, answers 400 naming it; a date-time without a time zone is UTC.',
	},
	unchangedContactWrite: {
		from: 'package',
		statement:
			'A contact write that changes nothing keeps `updated_at` and sends no `contact.changed`; `agency_id` null unlinks the agency and keeps any `agency_name` sent as plain text.',
	},
	recordLinks: {
		from: 'package',
		statement:
			'A link to a record carries its UUID after `/contacts/`, `/inspections/`, `/reports/` (the portal link), `/agencies/` or `/events/`, and any other link to a record holds its UUID once; the rest of the link is ignored. Attachments have no link.',
	},
} as const satisfies Record<string, Assumption>;

export type AssumptionName = keyof typeof ASSUMPTIONS;
