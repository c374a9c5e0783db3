/**
 * A report upload under n8n's Retry On Fail: the same PDF goes to two confirmed
 * inspections (the first two by id), once with Skip Duplicates off and once
 * with it on (the default). The test makes each upload's first answer get lost
 * after the server applied it, so n8n runs the node a second time.
 */
import { SANDBOX_CREDENTIAL } from '../../../scripts/workflows';
import { actionNode, base64ToFile, chain, codeNode, manualTrigger } from './build';
import { onePagePdf } from './files';

export const RETRIED_UPLOAD_ID = 'IbE2eRetryUpld01';

export const RETRIED_PDF = onePagePdf(['Report uploaded under Retry On Fail']);
export const RETRIED_FILE_NAME = 'Retried report.pdf';

/** n8n's node settings: a failed run of the node is tried once more, a second later. */
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1000 };

const reportBytes = (name: string) =>
	codeNode(name, `return [{ json: { report: '${RETRIED_PDF.toString('base64')}' } }];`);
const target = (which: 'first' | 'second') =>
	`={{ $('Confirmed inspections').first().json.${which} }}`;
const upload = (name: string, which: 'first' | 'second', parameters: Record<string, unknown>) =>
	actionNode(
		SANDBOX_CREDENTIAL,
		name,
		'attachment',
		'upload',
		{
			inspection_id: target(which),
			kind: 'report',
			name: 'Retried report',
			binaryPropertyName: 'data',
			...parameters,
		},
		RETRY_ON_FAIL,
	);

export function retriedUploadWorkflow() {
	return chain(RETRIED_UPLOAD_ID, 'E2E: report upload under Retry On Fail', [
		manualTrigger(),
		actionNode(
			SANDBOX_CREDENTIAL,
			'Inspections',
			'inspection',
			'getAll',
			{ returnAll: true, simplify: false },
			{ executeOnce: true },
		),
		codeNode(
			'Confirmed inspections',
			[
				`const ids = $input.all().filter((item) => item.json.status === 'confirmed').map((item) => item.json.id).sort();`,
				`if (ids.length < 2) throw new Error('Fewer than two confirmed inspections');`,
				`return [{ json: { first: ids[0], second: ids[1] } }];`,
			].join('\n'),
		),
		reportBytes('Report bytes'),
		base64ToFile('Report file', 'report', RETRIED_FILE_NAME, 'application/pdf'),
		upload('Upload, Skip Duplicates off', 'first', { skipDuplicates: false }),
		reportBytes('Report bytes again'),
		base64ToFile('Report file again', 'report', RETRIED_FILE_NAME, 'application/pdf'),
		upload('Upload, Skip Duplicates on', 'second', {}),
	]);
}
