import { ICredentialsHelper } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	ICredentialsExpressionResolveValues,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';

/**
 * Stands in for n8n's server-side CredentialsHelper in in-process tests, following what n8n does:
 * - `preAuthentication` is called when the hidden expirable property is empty, or once after a 401
 *   (`credentialsExpired`), and the returned token is saved back (here: into this store);
 * - `authenticate` applies a generic or function `authenticate` of the credential type, resolving
 *   `={{$credentials.x}}` expressions the way n8n does for the simple `$credentials.<name>` form.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** Saved credential data by credential type; tests read `accessToken` and counters from here. */
	readonly store = new Map<string, ICredentialDataDecryptedObject>();

	readonly preAuthenticationCalls: Array<{ type: string; expired: boolean }> = [];

	/** Credential types in the order nodes had them decrypted (`getDecrypted`, once per `getCredentials`). */
	readonly decryptions: string[] = [];

	constructor(private readonly types: Record<string, ICredentialType>) {
		super();
	}

	set(type: string, data: ICredentialDataDecryptedObject): void {
		const defaults: ICredentialDataDecryptedObject = {};
		for (const property of this.typeOf(type).properties) {
			if (property.default !== undefined) defaults[property.name] = property.default as never;
		}
		this.store.set(type, { ...defaults, ...data });
	}

	private typeOf(type: string): ICredentialType {
		const credentialType = this.types[type];
		if (!credentialType) throw new Error(`Unknown credential type ${type}`);
		return credentialType;
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.typeOf(typeName).authenticate;
		const options = requestOptions as IHttpRequestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		if (!authenticate) return options;
		const resolve = (value: unknown) =>
			typeof value === 'string'
				? value
						.replace(/^=/, '')
						.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, key: string) =>
							String((credentials[key] as string | number | boolean | undefined) ?? ''),
						)
				: value;
		const result: IHttpRequestOptions = { ...options };
		for (const [section, values] of Object.entries(authenticate.properties)) {
			const target = {
				...((result as unknown as Record<string, Record<string, unknown>>)[section] ?? {}),
			};
			for (const [key, value] of Object.entries(values as Record<string, unknown>))
				target[key] = resolve(value);
			(result as unknown as Record<string, unknown>)[section] = target;
		}
		return result;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.typeOf(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		this.preAuthenticationCalls.push({ type: typeName, expired: credentialsExpired });
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		const saved = {
			...(this.store.get(typeName) ?? {}),
			...(output as ICredentialDataDecryptedObject),
		};
		this.store.set(typeName, saved);
		return Object.assign(credentials, output);
	}

	async getCredentials(_details: INodeCredentialsDetails, _type: string): Promise<ICredentials> {
		throw new Error('not used by the tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode?: WorkflowExecuteMode,
		_executeData?: unknown,
		_raw?: boolean,
		_expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(type);
		if (!data) throw new Error(`No test credentials of type ${type}`);
		this.decryptions.push(type);
		// n8n decrypts a fresh copy for every call.
		return structuredClone(data);
	}

	async updateCredentials(
		_details: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.set(type, { ...data });
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string) {
		return this.typeOf(type).properties;
	}
}

export type { Workflow };
