import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { readAll } from '../../../shared/transport/pages';
import { pathIdField } from '../../../shared/fields';
import { listFields, listOutput, listRequest } from '../../helpers/list';
import { recordId, recordIdField } from '../../helpers/locatorsByVersion';

/**
 * Get Many: GET /v1/inspections/{inspection_id}/attachments (endpoint table:
 * `listInspectionAttachments`) with the item's Filters and
 * sort, every page or up to Limit; one output item per attachment.
 */
export const endpoint = 'listInspectionAttachments' satisfies EndpointKey;

export const description = listFields('attachment', 'getAllForInspection', endpoint, {
	pathFields: recordIdField(
		'inspection',
		pathIdField('inspection_id', 'The inspection whose additional reports and documents to list'),
	),
});

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const inspectionId = recordId(this, 'inspection', 'inspection_id', itemIndex);
	const request = listRequest(this, endpoint, itemIndex, { inspection_id: inspectionId });
	const records = await readAll.call(this, endpoint, request);
	return listOutput(this, itemIndex, records);
}
