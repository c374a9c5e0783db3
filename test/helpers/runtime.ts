/**
 * Boots the parts of n8n-core that node execution needs, once per process:
 * a throw-away n8n user folder (InstanceSettings), the real BinaryDataService
 * in filesystem mode, and the additional data WorkflowExecute and the node
 * contexts read. n8n-core resolves services from its own copy of @n8n/di, so
 * the container is loaded from n8n-core's location, not the top-level one.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { setSafeRegexEngine } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials';
import { patientRegexEngine } from './regex-engine';

export { buildWorkflow, NodeTypeRegistry } from './workflow';

type CoreModule = typeof import('n8n-core');
type DiModule = typeof import('@n8n/di');

/** The credential a test hands a node; `requestsPerMinute` falls back to the credential default. */
export interface TestCredentials {
	apiKey: string;
	baseUrl: string;
	requestsPerMinute?: number;
	rateLimitWaitMinutes?: number;
}

export const CREDENTIAL_TYPE = 'inspectionBusinessApi';
export const PACKAGE_PREFIX = 'n8n-nodes-inspection-business';

let booted: Promise<CoreModule> | undefined;
let userFolder: string | undefined;

// Under jest each test file gets its own module registry, so this removes one
// temp folder per file; elsewhere (bench) the process exit does. Registered at
// load time because jest refuses hooks added inside a test.
const removeUserFolder = () => {
	if (userFolder !== undefined) rmSync(userFolder, { recursive: true, force: true });
};
if (typeof afterAll === 'function') afterAll(removeUserFolder);
else process.once('exit', removeUserFolder);

/** Loads n8n-core after pointing its folders at a temporary directory; idempotent. */
export async function bootN8nCore(): Promise<CoreModule> {
	booted ??= (async () => {
		userFolder = mkdtempSync(join(tmpdir(), 'ib-n8n-harness-'));
		process.env.N8N_USER_FOLDER = userFolder;
		process.env.N8N_ENCRYPTION_KEY ??= 'inspection-business-harness-only';
		process.env.N8N_LOG_LEVEL ??= 'silent';
		process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
		process.env.N8N_BINARY_DATA_STORAGE_PATH = join(userFolder, 'binary-data');
		const core: CoreModule = await import('n8n-core');
		setSafeRegexEngine(patientRegexEngine);
		await coreContainer().get(core.BinaryDataService).init();
		return core;
	})();
	return await booted;
}

/** n8n-core's DI container (see the header for why it is not the top-level @n8n/di). */
export function coreContainer(): DiModule['Container'] {
	const coreRequire = createRequire(require.resolve('n8n-core'));
	return (coreRequire('@n8n/di') as DiModule).Container;
}

/** The highest version a node type declares; a new node in the editor gets it. */
export function latestVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

export function typeName(type: INodeType | IVersionedNodeType): string {
	return `${PACKAGE_PREFIX}.${type.description.name}`;
}

export function credentialData(
	credentials?: TestCredentials,
): Record<string, ICredentialDataDecryptedObject> {
	if (credentials === undefined) return {};
	const data: ICredentialDataDecryptedObject = {
		apiKey: credentials.apiKey,
		baseUrl: credentials.baseUrl,
	};
	if (credentials.requestsPerMinute !== undefined)
		data.requestsPerMinute = credentials.requestsPerMinute;
	if (credentials.rateLimitWaitMinutes !== undefined)
		data.rateLimitWaitMinutes = credentials.rateLimitWaitMinutes;
	return { [CREDENTIAL_TYPE]: data };
}

export function nodeCredentials(credentials?: TestCredentials): INode['credentials'] {
	return credentials === undefined
		? undefined
		: { [CREDENTIAL_TYPE]: { id: 'harness-credential', name: 'Test credential' } };
}

/** The node a harness runs: the package's node type at `typeVersion` (else its latest). */
export function testedNode(
	options: {
		node: INodeType | IVersionedNodeType;
		parameters: INodeParameters;
		credentials?: TestCredentials;
		typeVersion?: number;
	},
	place: { id: string; name: string; position: [number, number] },
	extraCredentials: INode['credentials'] = {},
): INode {
	return {
		...place,
		type: typeName(options.node),
		typeVersion: options.typeVersion ?? latestVersion(options.node),
		parameters: options.parameters,
		credentials: { ...nodeCredentials(options.credentials), ...extraCredentials },
	};
}

let executionCounter = 0;

const unsupported = (what: string) => async (): Promise<never> => {
	throw new Error(`${what} is not available in the test harness`);
};

/** What WorkflowExecute and the node contexts read from the host (n8n's CLI in production). */
export function additionalData(
	credentials: Record<string, ICredentialDataDecryptedObject>,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	const base = 'http://localhost:5678';
	return {
		credentialsHelper: new TestCredentialsHelper(credentials),
		executeWorkflow: unsupported('executeWorkflow'),
		getRunExecutionData: unsupported('getRunExecutionData'),
		getRuntimeCredential: unsupported('getRuntimeCredential'),
		startRunnerTask: unsupported('startRunnerTask'),
		logAiEvent: () => {},
		executionId: `harness-${++executionCounter}`,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		...extra,
	} as IWorkflowExecuteAdditionalData;
}
