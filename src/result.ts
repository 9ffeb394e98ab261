/**
 * "A value, or why not", as path checks, note lookups, edits and every tool handler return it. The
 * error is a sentence a person or a model can act on, passed up unchanged to the tool that answers
 * with it. Pure; imports nothing.
 *
 * Not the only such shape. The settings edits the CLI and the settings tab make answer
 * `{ …changed } | { error }` and are tested with `"error" in`: the token list (`auth/tokenList.ts`),
 * rights (`applyRightChanges`), token folders (`parseTokenFolders`, `foldersFromFlags`, and
 * `TokenFoldersOutcome`, whose error also says whether it is a usage error). An undo answers
 * `UndoOutcome`, `{ ok: true, … } | { ok: false, reason }`, with what it undid. The HTTP layer's own
 * shapes carry a refusal with its status code (`{ refusal }`, `{ refused }`), not a sentence.
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
