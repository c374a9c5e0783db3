import type { IVersionedNodeType } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';

import { InspectionBusinessActionNode } from './actionNode';

/**
 * Versioned from the start, so a breaking change becomes v2 beside v1 instead
 * of changing workflows built on v1. The base description is v1's own.
 */
export class InspectionBusiness extends VersionedNodeType {
	constructor() {
		// One implementation serves both versions; what version 1 does
		// differently is listed in helpers/versions.ts.
		const node = new InspectionBusinessActionNode();
		const { displayName, name, icon, group, description } = node.description;
		const nodeVersions: IVersionedNodeType['nodeVersions'] = { 1: node, 2: node };
		super(nodeVersions, { displayName, name, icon, group, description, defaultVersion: 2 });
	}
}
