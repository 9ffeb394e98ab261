/**
 * "A value, or why not", as path checks, note lookups, edits and every tool handler return it. The
 * error is a sentence a person or a model can act on, passed up unchanged to the tool that answers
 * with it. Not yet the only such shape: the token list and the rights (`auth/tokenList.ts`,
 * `auth/rights.ts`) still answer `{ error } | { … }`, which the CLI and the settings tab test with
 * `"error" in`. Pure; imports nothing.
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
