import type { IDataObject } from 'n8n-workflow';

/**
 * Address fields of the documented schema copied to `address_<field>`, in spreadsheet column order; every one is present (null
 * when missing), fields a server adds follow.
 */
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

/** Contact point fields of the documented schema: the main contact point's become `contact_<field>` (`contact_type` as is). */
const CONTACT_FIELDS = ['iri', 'contact_type', 'email', 'telephone'];

/** What Flatten needs selected; paths a server lacks are skipped like preset fields. */
export const FLATTEN_FIELD_PATHS = ['primary_site.*', 'primary_site.address.*', 'contact_point.*'];

function asObject(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

function contactPoints(value: unknown): IDataObject[] {
	return (Array.isArray(value) ? value : []).map(asObject).filter((point) => point !== undefined);
}

function typeOf(point: IDataObject): string {
	return String((point.contact_type as string | undefined) ?? '');
}

/** The contact point typed `primary`, else the first one. */
function mainContactPoint(points: IDataObject[]): IDataObject | undefined {
	return points.find((point) => typeOf(point).toLowerCase() === 'primary') ?? points[0];
}

/** `Financial dept.` -> `financial_dept`; no type -> `untyped`. */
function columnPart(contactType: string): string {
	const part = contactType
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '_')
		.replace(/^_+|_+$/g, '');
	return part === '' ? 'untyped' : part;
}

/** Known fields first in the given order, then whatever else the object holds. */
function orderedKeys(object: IDataObject, known: string[]): string[] {
	return [...known, ...Object.keys(object).filter((key) => !known.includes(key))];
}

function copyPrimarySite(
	flat: IDataObject,
	primarySite: IDataObject | undefined,
	fillKnown: boolean,
): void {
	const site = primarySite ?? {};
	for (const key of orderedKeys(site, fillKnown ? ['iri'] : [])) {
		if (key !== 'address') flat[`primary_site_${key}`] = site[key] ?? null;
	}
	const address = asObject(site.address) ?? {};
	for (const key of orderedKeys(address, fillKnown ? ADDRESS_FIELDS : []))
		flat[`address_${key}`] = address[key] ?? null;
}

/**
 * The main contact point as `contact_iri`, `contact_type`, `contact_email`, `contact_telephone`; then every contact
 * point (the main one too) under its type, `contact_<type>_<field>`, so e.g. `contact_financial_email` is a column
 * that means the same on every row. A second point of the same type gets `contact_<type>_2_<field>`.
 */
function copyContactPoints(flat: IDataObject, value: unknown, fillKnown: boolean): void {
	const points = contactPoints(value);
	const main = mainContactPoint(points) ?? {};
	for (const key of orderedKeys(main, fillKnown ? CONTACT_FIELDS : [])) {
		flat[key === 'contact_type' ? 'contact_type' : `contact_${key}`] = main[key] ?? null;
	}
	const usedPrefixes = new Set<string>();
	for (const point of points) {
		const type = columnPart(typeOf(point));
		let prefix = `contact_${type}`;
		for (let count = 2; usedPrefixes.has(prefix); count++) prefix = `contact_${type}_${count}`;
		usedPrefixes.add(prefix);
		for (const key of orderedKeys(point, fillKnown ? CONTACT_FIELDS : [])) {
			if (key !== 'contact_type') flat[`${prefix}_${key}`] = point[key] ?? null;
		}
	}
}

/**
 * One row per entity with plain columns for spreadsheets: the primary site and its address become `primary_site_*`
 * and `address_*`, the contact points `contact_*` (see copyContactPoints). Nothing they held is dropped. The nested
 * `primary_site` and `contact_point` are replaced; other fields (e.g. `sites`) are kept as they are. With
 * `fillKnown` (the presets) every known column is present, null when missing, so rows line up in a spreadsheet;
 * without it (Selected Fields) only the columns of what was selected.
 */
export function flattenOrganization(row: IDataObject, fillKnown = true): IDataObject {
	const { primary_site: primarySite, contact_point: contactPoint, ...rest } = row;
	const flat: IDataObject = { ...rest };
	copyPrimarySite(flat, asObject(primarySite), fillKnown);
	copyContactPoints(flat, contactPoint, fillKnown);
	return flat;
}
