/**
 * Contact Create or Update, step one: which contacts already have each email,
 * found with as few requests as possible.
 *
 * Two ways to find them: look up each unique email (`GET /v1/contacts?email=`,
 * exact and case-insensitive), U requests; or walk every contact once, ⌈N/200⌉
 * pages, where N is the `total` that a `limit=1` request returns. Only the
 * count tells which is cheaper, and it costs one request itself. The rule:
 *   - one unique email: look it up (1 request; no walk costs less);
 *   - two or more: count (1 request), then walk if ⌈N/200⌉ < U, else look up.
 * This never costs more than one request above the cheaper of U and
 * 1 + ⌈N/200⌉.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../shared/endpoints';
import { listPage, paginate } from '../../shared/transport/pages';
import { apiRequest } from '../../shared/transport/request';
import type { N8nContext } from '../../shared/transport/types';

const ENDPOINT = 'listContacts';

/** How the API compares emails: exact, case-insensitive. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

type Strategy = 'lookup' | 'walk';

interface EmailPlan {
	uniqueEmails: number;
	/** Contacts in the account, from the count; undefined when no count was needed. */
	contacts?: number;
	strategy: Strategy;
	/** Requests each strategy costs, the count included in the walk's. */
	lookupRequests: number;
	walkRequests?: number;
}

/** Walk pages for N contacts: one page per 200 (none when there are none). */
export const walkPages = (contacts: number): number => Math.ceil(contacts / LIMITS.pageSizeMax);

/** The plan for U unique emails; `contacts` is the count, read only when U ≥ 2. */
export function planFor(uniqueEmails: number, contacts?: number): EmailPlan {
	const lookupRequests = uniqueEmails;
	if (contacts === undefined) return { uniqueEmails, strategy: 'lookup', lookupRequests };
	const pages = walkPages(contacts);
	return {
		uniqueEmails,
		contacts,
		strategy: pages < uniqueEmails ? 'walk' : 'lookup',
		lookupRequests,
		walkRequests: 1 + pages,
	};
}

export const needsCount = (uniqueEmails: number): boolean => uniqueEmails >= 2;

/** What one email resolved to: the contacts that have it, or the error that stopped the search. */
type EmailMatch = IDataObject[] | { failed: unknown };

/** One request per email; a failed lookup fails only the items with that email. */
export async function lookUpEmails(
	this: N8nContext,
	emails: string[],
): Promise<Map<string, EmailMatch>> {
	const matches = new Map<string, EmailMatch>();
	for (const email of emails) {
		try {
			// limit=200 costs the same single request as limit=1 and names every duplicate.
			const page = await listPage.call(this, ENDPOINT, {
				query: { email, limit: LIMITS.pageSizeMax },
			});
			matches.set(
				emailKey(email),
				page.records.filter((c) => emailKey(String(c.email)) === emailKey(email)),
			);
		} catch (error) {
			matches.set(emailKey(email), { failed: error });
		}
	}
	return matches;
}

/** One walk of every contact, keeping those whose email is wanted. */
export async function walkEmails(
	this: N8nContext,
	emails: string[],
): Promise<Map<string, EmailMatch>> {
	const found = new Map<string, IDataObject[]>(emails.map((email) => [emailKey(email), []]));
	for await (const page of paginate.call(this, ENDPOINT, {})) {
		for (const contact of page) found.get(emailKey(String(contact.email)))?.push(contact);
	}
	return found;
}

/**
 * The contacts having each of `emails` (keyed by `emailKey`), found by the
 * plan above. A failed count or walk is reported on every email.
 */
export async function matchEmails(
	this: N8nContext,
	emails: string[],
): Promise<{ plan: EmailPlan; matches: Map<string, EmailMatch> }> {
	// Each email once, as its first item spells it.
	const spellings = new Map<string, string>();
	for (const email of emails)
		if (!spellings.has(emailKey(email))) spellings.set(emailKey(email), email);
	const unique = [...spellings.values()];
	let plan = planFor(unique.length);
	try {
		if (needsCount(unique.length)) {
			const count = await apiRequest.call(this, ENDPOINT, { query: { limit: 1 } });
			const total = Number(count.total);
			// Without a usable count, lookups are the plan whose cost is known.
			plan = planFor(unique.length, Number.isInteger(total) && total >= 0 ? total : undefined);
		}
		const matches =
			plan.strategy === 'walk'
				? await walkEmails.call(this, unique)
				: await lookUpEmails.call(this, unique);
		return { plan, matches };
	} catch (error) {
		return { plan, matches: new Map(unique.map((email) => [emailKey(email), { failed: error }])) };
	}
}
