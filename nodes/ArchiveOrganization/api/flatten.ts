import type { IDataObject } from 'n8n-workflow';

/** Address fields of the documented schema as `address_<field>` columns, in spreadsheet column order. */
const ADDRESS_FIELDS = [
	'iri',
	'contact_type',
	'street',
	'post_office_box_number',
	'postal_code',
	'locality',
	'region',
	'country',
	'email',
	'telephone',
];

/** Contact point fields of the documented schema. */
const CONTACT_FIELDS = ['iri', 'contact_type', 'email', 'telephone'];

/** What Flatten needs selected; paths a server lacks are skipped like preset fields. */
export const FLATTEN_FIELD_PATHS = ['primary_site.*', 'primary_site.address.*', 'contact_point.*'];

function asObject(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

function typeOf(point: IDataObject): string {
	return String((point.contact_type as string | undefined) ?? '');
}

/** `Financial dept.` -> `financial_dept`; no type -> `untyped`. */
function columnPart(contactType: string): string {
	const part = contactType
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '_')
		.replace(/^_+|_+$/g, '');
	return part === '' ? 'untyped' : part;
}

/**
 * Copies the object's fields to the columns `column` names (none: not copied): the known fields first, in their
 * order and null when missing, then whatever else the object holds.
 */
function copy(
	flat: IDataObject,
	object: IDataObject,
	known: string[],
	column: (key: string) => string | undefined,
): void {
	for (const key of [...known, ...Object.keys(object).filter((key) => !known.includes(key))]) {
		const name = column(key);
		if (name) flat[name] = object[key] ?? null;
	}
}

/**
 * One row per entity with plain columns for spreadsheets: the primary site and its address become `primary_site_*`
 * and `address_*`; the main contact point (typed `primary`, else the first) `contact_iri`, `contact_type`,
 * `contact_email` and so on, then every contact point (the main one too) `contact_<type>_<field>`, so e.g.
 * `contact_financial_email` means the same on every row (a second point of a type: `contact_<type>_2_<field>`).
 * Other fields (e.g. `sites`) are kept as they are. With `fillKnown` (the presets) every known column is present,
 * null when missing, so rows line up in a spreadsheet; without it (Selected Fields) only what was selected.
 */
export function flattenOrganization(row: IDataObject, fillKnown = true): IDataObject {
	const { primary_site: primarySite, contact_point: contactPoint, ...rest } = row;
	const flat: IDataObject = { ...rest };
	const site = asObject(primarySite) ?? {};
	copy(flat, site, fillKnown ? ['iri'] : [], (key) =>
		key === 'address' ? undefined : `primary_site_${key}`,
	);
	copy(
		flat,
		asObject(site.address) ?? {},
		fillKnown ? ADDRESS_FIELDS : [],
		(key) => `address_${key}`,
	);
	const points = (Array.isArray(contactPoint) ? contactPoint : [])
		.map(asObject)
		.filter((point) => point !== undefined);
	const main = points.find((point) => typeOf(point).toLowerCase() === 'primary') ?? points[0];
	const contactFields = fillKnown ? CONTACT_FIELDS : [];
	copy(flat, main ?? {}, contactFields, (key) => (key === 'contact_type' ? key : `contact_${key}`));
	const usedPrefixes = new Set<string>();
	for (const point of points) {
		const type = columnPart(typeOf(point));
		let prefix = `contact_${type}`;
		for (let count = 2; usedPrefixes.has(prefix); count++) prefix = `contact_${type}_${count}`;
		usedPrefixes.add(prefix);
		copy(flat, point, contactFields, (key) =>
			key === 'contact_type' ? undefined : `${prefix}_${key}`,
		);
	}
	return flat;
}
