import type { IDataObject } from 'n8n-workflow';

/** Address fields copied to `address_<field>`, in spreadsheet column order. */
const ADDRESS_FIELDS = ['street', 'post_office_box_number', 'postal_code', 'locality', 'region', 'country'];

/** What Flatten needs selected; paths a server lacks are skipped like preset fields. */
export const FLATTEN_FIELD_PATHS = [
	...ADDRESS_FIELDS.map((field) => `primary_site.address.${field}`),
	'contact_point.contact_type',
	'contact_point.email',
	'contact_point.telephone',
];

function asObject(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : undefined;
}

/** The contact point typed `primary`, else the first one. */
function primaryContactPoint(value: unknown): IDataObject | undefined {
	const points = (Array.isArray(value) ? value : []).map(asObject).filter((point) => point !== undefined);
	return (
		points.find((point) => String(point.contact_type ?? '').toLowerCase() === 'primary') ?? points[0]
	);
}

/**
 * One row per entity with plain columns: the primary site's address becomes `address_*` and the primary contact
 * point `contact_email` / `contact_telephone`. The nested `primary_site` and `contact_point` are replaced (every
 * column is present, null when the entity has no such data), other fields are kept as they are.
 */
export function flattenOrganization(row: IDataObject): IDataObject {
	const { primary_site: primarySite, contact_point: contactPoint, ...rest } = row;
	const address = asObject(asObject(primarySite)?.address) ?? {};
	const contact = primaryContactPoint(contactPoint) ?? {};
	const flat: IDataObject = { ...rest };
	for (const field of ADDRESS_FIELDS) flat[`address_${field}`] = address[field] ?? null;
	flat.contact_email = contact.email ?? null;
	flat.contact_telephone = contact.telephone ?? null;
	return flat;
}
