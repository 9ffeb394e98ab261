/**
 * The one shape for "a value, or why not" below the tool protocol: path checks, note lookups,
 * edits. The error is a sentence a person or a model can act on, passed up unchanged to the tool
 * that answers with it. Pure; imports nothing.
 */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/** A failure, whatever value the success would have carried. */
export type Failure = Extract<Result<unknown>, { ok: false }>;

export function ok<T>(value: T): Result<T> {
	return { ok: true, value };
}

export function fail(error: string): Failure {
	return { ok: false, error };
}
