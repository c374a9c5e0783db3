/** The sandbox's fixed API keys, organizations and key owners (sharedRateBudget: keys of one owner share a budget). */
export const SANDBOX_KEYS = {
	acmeOwner: 'ib_sandbox_acme_owner',
	acmeOwner2: 'ib_sandbox_acme_owner_2',
	acmeStaff: 'ib_sandbox_acme_staff',
	globex: 'ib_sandbox_globex',
	revoked: 'ib_sandbox_revoked',
} as const;

export const ORG_IDS = ['acme', 'globex'] as const;
export type OrgId = (typeof ORG_IDS)[number];

export interface KeyInfo {
	org: OrgId;
	/** Rate-limit budget holder. */
	owner: string;
	active: boolean;
	description: string;
}

export const KEY_TABLE: Readonly<Record<string, KeyInfo>> = {
	[SANDBOX_KEYS.acmeOwner]: {
		org: 'acme',
		owner: 'acme:owner-a',
		active: true,
		description: 'Acme, owner A',
	},
	[SANDBOX_KEYS.acmeOwner2]: {
		org: 'acme',
		owner: 'acme:owner-a',
		active: true,
		description: 'Acme, owner A (second key, same budget)',
	},
	[SANDBOX_KEYS.acmeStaff]: {
		org: 'acme',
		owner: 'acme:owner-b',
		active: true,
		description: 'Acme, owner B',
	},
	[SANDBOX_KEYS.globex]: {
		org: 'globex',
		owner: 'globex:owner',
		active: true,
		description: 'Globex',
	},
	[SANDBOX_KEYS.revoked]: {
		org: 'acme',
		owner: 'acme:revoked',
		active: false,
		description: 'inactive: 401',
	},
};

export function isOrgId(value: unknown): value is OrgId {
	return typeof value === 'string' && (ORG_IDS as readonly string[]).includes(value);
}
