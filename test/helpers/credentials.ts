/**
 * The harness's stand-in for n8n's credentials store. It hands nodes the test
 * credential (with the credential class's defaults filled in, as n8n does) and
 * applies the credential class's generic `authenticate` by resolving its
 * `={{$credentials.x}}` expressions with n8n-workflow's own expression engine.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

import { InspectionBusinessApi } from '../../credentials/InspectionBusinessApi.credentials';
import { InspectionBusinessWebhookApi } from '../../credentials/InspectionBusinessWebhookApi.credentials';

export const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	inspectionBusinessApi: new InspectionBusinessApi(),
	inspectionBusinessWebhookApi: new InspectionBusinessWebhookApi(),
};

export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return CREDENTIAL_TYPES[type]?.properties ?? [];
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.data[type];
		if (stored === undefined) throw new Error(`The harness has no credential of type "${type}"`);
		// n8n fills unset fields with the credential's defaults before a node sees them.
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as never,
			true,
			false,
			null,
			null,
		);
		return { ...(withDefaults as ICredentialDataDecryptedObject) };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const options = requestOptions as IHttpRequestOptions;
		const authenticate = CREDENTIAL_TYPES[typeName]?.authenticate;
		if (authenticate === undefined) return options;
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		if (workflow === undefined || node === undefined) {
			throw new Error('Generic authentication needs the workflow and node to resolve expressions');
		}
		const resolve = (value: unknown): unknown =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					)
				: value;
		const target = options as unknown as Record<string, Record<string, unknown> | undefined>;
		for (const [section, entries] of Object.entries(authenticate.properties)) {
			const resolved: Record<string, unknown> = {};
			for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
				resolved[String(resolve(key))] = resolve(value);
			}
			target[section] = { ...(target[section] ?? {}), ...resolved };
		}
		return options;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails): Promise<Credentials> {
		return new Credentials(nodeCredentials, 'inspectionBusinessApi', '');
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}
}
