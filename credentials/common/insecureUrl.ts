import type { INodeProperties } from 'n8n-workflow';

/**
 * Matches an `http://` URL whose host is not loopback. n8n evaluates it in the credential form (a `_cnd` regex
 * display condition), so the warning shows next to the field as soon as such a URL is typed or tested.
 */
export const INSECURE_URL_PATTERN =
	'^\\s*[Hh][Tt][Tt][Pp]://(?!(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?([/?#]|$))';

/** A warning shown under a URL field of the credential while it holds a plain-http, non-loopback URL. */
export function insecureUrlNotice(
	field: string,
	fieldLabel: string,
	carries: string,
): INodeProperties {
	return {
		displayName: `"${fieldLabel}" uses plain http:// to a host that is not this machine: ${carries} would cross the network unencrypted. Use https:// (plain http is meant for local emulators only).`,
		name: `${field}InsecureNotice`,
		type: 'notice',
		default: '',
		displayOptions: { show: { [field]: [{ _cnd: { regex: INSECURE_URL_PATTERN } }] } },
	};
}
