/**
 * Where `api-v1.md` says "not shown", the project follows these choices.
 * A1–A20 come from `shared/spec/ASSUMPTIONS.md`; D1–D… are this package's own
 * decisions where both documents are silent. The README lists all of them.
 * Code that depends on one cites its id, and the value itself lives in
 * `endpoints.ts` (or here), so each can change in one line.
 */
export const ASSUMPTIONS = {
	A1: 'No public base URL: the credential asks for one. The sandbox serves at http://127.0.0.1:4010.',
	A2: 'No single-record path: Get reads the list with ids=<id>; an empty result means not found.',
	A3: 'POST /v1/contacts answers 201 with the created Contact.',
	A4: 'PATCH /v1/contacts/{id} answers 200 with the updated Contact.',
	A5: 'An unknown id in a path answers 404.',
	A6: 'Error body {"error":{"code","message","param"}}; the node also reads {"message"}, {"error":"..."} and {"errors":[{"title","detail"}]}.',
	A7: 'A 429 may carry Retry-After in seconds, or no header. No X-RateLimit-* header is relied on.',
	A8: 'Contact stats: GET /v1/contacts/stats with contact_ids (≤200), from, to (inspections scheduled in [from, to)), cursor, limit.',
	A9: 'Inspection events: GET /v1/events with inspection_id, ids, updated_since, cursor, limit.',
	A10: 'Tags take cursor and limit only; agencies take ids, cursor and limit only.',
	A11: 'updated_since is inclusive (>=) on updated_at, by the server clock.',
	A12: 'Default order is by id; a cursor is bound to its sort (another sort: 400); ties break by id.',
	A13: 'Webhooks are registered by hand in the business tools; no API endpoint.',
	A14: 'Webhook payload: any JSON; event from event|type|kind; record id from data.id|data.inspection_id|data.contact_id|inspection_id|contact_id|id in order; else top-level id is the delivery id.',
	A15: 'Webhook authenticity: a user-chosen shared secret in a named header or the query; optional HMAC-SHA256 of the raw body.',
	A16: 'Signed links need no credential; the API key is never sent to them. The sandbox serves them under /files/… for 1 hour.',
	A17: 'Several keys of one user share one budget of 120 requests a minute.',
	A18: 'MCP is not used; AI agents use the node as a tool (usableAsTool).',
	A19: 'Photo upload and photo delete answer 200 with the Contact.',
	A20: 'Attachment multipart fields are kind, file, name, description, internal_only ("true"/"false"); the photo field is file.',
	D1: 'Inspections sort by their date fields: scheduled_for, ends_at, created_at, updated_at, canceled_at.',
	D2: 'A cursor is bound to its filters as well as its sort; reused with other filters it answers 400 naming cursor.',
	D3: 'Boolean query values are the strings true and false; a repeated array parameter is sent as tag=a&tag=b.',
	D4: 'Lists without a documented sort (tags, agencies, events, contact stats) are ordered by id; the account-wide attachment list by updated_at descending, then inspection_id and id.',
	D5: 'The account-wide attachment list and the per-inspection list both take cursor and limit (the spec says all lists paginate).',
	D6: 'Contact-stats revenue is the sum of price.quote over the contact’s non-canceled, non-deleted inspections in the window.',
	D7: 'Sandbox rate limit: a sliding 60-second window per key owner; Retry-After is the whole seconds until a slot frees.',
	D8: 'Sanitized file names: a path is dropped, spaces become underscores, accents lose their marks, only letters, digits, dot, underscore and hyphen stay; leading dots go; an empty stem becomes file.',
	D9: 'A deleted inspection is gone from paths: its attachment list and attachment uploads answer 404, like an unknown id (A5).',
	D10: 'internal_only on a report upload answers 400 naming it (documents only); a document may carry name (default: its file name) and description; any multipart part outside AttachmentUpload answers 400.',
	D11: 'Query values: ids in an id list must be uuids; an empty value, or a repeated non-array parameter, is a 400 naming it; a date-time without a zone is UTC.',
	D12: 'A contact write that changes nothing keeps updated_at and sends no contact.changed; agency_id null unlinks and keeps any agency_name sent as plain text.',
	D13: 'By URL takes the UUID after /contacts/, /inspections/, /reports/ (portal_url), /agencies/ or /events/ in an http(s) link; the rest is ignored. Attachments have no link form.',
} as const;

export type AssumptionId = keyof typeof ASSUMPTIONS;
