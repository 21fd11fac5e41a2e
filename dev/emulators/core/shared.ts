/** Values both services share, so AI `cp` values are real content-partner ids of the Organization API. */
import { LOWER_ALNUM, Random } from './random';

export const CONTENT_PARTNER_COUNT_FOR_AI = 8;

/** `OR-` ids like `OR-abc1234`; the first few are the AI data's content partners. */
export function organizationId(seed: number, index: number): string {
	return `OR-${Random.for(seed, 'organization-id', index).chars(LOWER_ALNUM, 7)}`;
}

export function aiContentPartnerIds(seed: number): string[] {
	return Array.from({ length: CONTENT_PARTNER_COUNT_FOR_AI }, (_, index) =>
		organizationId(seed, index),
	);
}

export const GIVEN_NAMES = [
	'An',
	'Bart',
	'Chloé',
	'Dirk',
	'Els',
	'Fien',
	'Geert',
	'Hanne',
	'Ingrid',
	'Jan',
	'Katrien',
	'Lode',
	'Marie',
	'Nico',
	'Olivia',
	'Pieter',
	'Quinten',
	'Rita',
	'Sofie',
	'Tom',
	'Ursula',
	'Vincent',
	'Wout',
	'Zoë',
];
export const FAMILY_NAMES = [
	'Peeters',
	'Janssens',
	'Maes',
	'Jacobs',
	'Mertens',
	'Willems',
	'Claes',
	'Goossens',
	'Wouters',
	'De Smet',
	'Dubois',
	'Lambert',
	'Dupont',
	'Van den Broeck',
	'Vermeulen',
	'Desmet',
	'Hermans',
	'Lemmens',
	'Dewitte',
	'Coppens',
];
