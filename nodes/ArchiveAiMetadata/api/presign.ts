import { getNamedType, isInputObjectType, isObjectType } from 'graphql';
import type { GraphQLSchema } from 'graphql';

/**
 * `presignS3(urls_sets: {...}): [presigned_urls]`, read from the live schema: inputs are the raw column names,
 * outputs `presigned_<column>` (transcripts without `transcript_`: `presigned_srt`).
 */
export const PRESIGN_FIELD = 'presignS3';
export const PRESIGN_ARGUMENT = 'urls_sets';

interface PresignSchema {
	argumentType: string;
	inputFields: string[];
	outputFields: string[];
}

export function resolvePresign(schema: GraphQLSchema): PresignSchema | undefined {
	const field = schema.getQueryType()?.getFields()[PRESIGN_FIELD];
	const argument = field?.args.find((candidate) => candidate.name === PRESIGN_ARGUMENT);
	if (!field || !argument) return undefined;
	const input = getNamedType(argument.type);
	const output = getNamedType(field.type);
	if (!isInputObjectType(input) || !isObjectType(output)) return undefined;
	return {
		argumentType: argument.type.toString(),
		inputFields: Object.keys(input.getFields()),
		outputFields: Object.keys(output.getFields()),
	};
}

/** The output field holding the URL for a raw column, or undefined when the API offers none. */
export function presignedFieldFor(presign: PresignSchema, column: string): string | undefined {
	if (!presign.inputFields.includes(column)) return undefined;
	const candidates = [`presigned_${column}`, `presigned_${column.replace(/^transcript_/, '')}`];
	return candidates.find((candidate) => presign.outputFields.includes(candidate));
}

/**
 * A raw column holds either the content itself or an object path such as `<task_id>/transcript.srt`.
 * A path is one line of path segments ending in a file name with an extension. A leading `/` and `.`/`..`
 * segments still make a path (so that objectPathProblem refuses it rather than it being taken for content).
 */
export function looksLikeObjectPath(value: string): boolean {
	const text = value.trim();
	return (
		/^\/*[\w.-]+(\/[\w.-]+)*\/[\w-]+\.[A-Za-z0-9]+$|^\/+[\w-]+\.[A-Za-z0-9]+$/.test(text) &&
		!value.includes('\n')
	);
}

/** Why an object path must not be presigned (it could name an object outside the task's own), or undefined. */
export function objectPathProblem(path: string): string | undefined {
	if (path.startsWith('/')) return 'is absolute (starts with /)';
	if (path.split('/').some((segment) => segment === '..' || segment === '.'))
		return 'contains a "." or ".." segment';
	return undefined;
}
