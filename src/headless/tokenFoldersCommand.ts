/**
 * `vault-mcp token folders <vault> NAME [FOLDER,…]` and the `--folders` of `token new`: which
 * folders a token may see. Kept out of the CLI's dispatcher so it can be run and tested alone.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { setTokenFolders, tokenFoldersText, tokenNamed } from "../auth/tokenList";
import type { VaultMcpSettings } from "../config/settings";
import { vaultRootSpellings } from "../config/vaultRootSpellings";
import { parseTokenFolders } from "../paths/tokenFolders";

/** What the command needs of the settings file (FileSettingsStore fits). */
export interface TokenFoldersStore {
	read(): Promise<{ settings: VaultMcpSettings; warnings: string[] }>;
	update(change: (current: VaultMcpSettings) => VaultMcpSettings): Promise<VaultMcpSettings>;
}

/** What `token folders` was asked: show them (neither), set them, or give back the whole vault. */
export interface TokenFoldersRequest {
	root: string;
	/** The token's name or short id (see `tokenNamed`). */
	name: string;
	/** The FOLDER,… argument, comma-separated or repeated; absent: only show. */
	folders?: readonly string[];
	wholeVault: boolean;
	json: boolean;
}

/** What to print: `out` on stdout, `warnings` on stderr, or an error (exit 1 when `usage` is false, else 2). */
export type TokenFoldersOutcome = { out: string; warnings: string[] } | { error: string; usage: boolean };

/** `--folders A,B` (comma-separated or the flag repeated) as checked folders, or why not. */
export function foldersFromFlags(flags: readonly string[], root: string): { folders: string[] } | { error: string } {
	return parseTokenFolders(
		flags.flatMap((flag) => flag.split(",")),
		vaultRootSpellings(root),
	);
}

/** A warning for each folder that is not (yet) in the vault: the token sees nothing there until it is made. */
export async function missingFolderWarnings(root: string, folders: readonly string[]): Promise<string[]> {
	const warnings: string[] = [];
	for (const folder of folders) {
		const stat = await fs.stat(nodePath.join(root, folder)).catch(() => null);
		if (!stat?.isDirectory()) warnings.push(`there is no folder "${folder}" in the vault yet; the token sees nothing there until it is made`);
	}
	return warnings;
}

/** Runs `token folders`: changes data.json only when folders or --whole-vault are given. */
export async function runTokenFolders(store: TokenFoldersStore, request: TokenFoldersRequest): Promise<TokenFoldersOutcome> {
	if (request.wholeVault && request.folders !== undefined) return { error: "Give folders or --whole-vault, not both.", usage: true };
	let wanted: string[] | null = null;
	if (request.wholeVault) wanted = [];
	else if (request.folders !== undefined) {
		const parsed = foldersFromFlags(request.folders, request.root);
		if ("error" in parsed) return { error: parsed.error, usage: true };
		// An empty list would mean the whole vault: that has to be said with --whole-vault, never by a blank argument.
		if (parsed.folders.length === 0)
			return { error: "No folder given. Name at least one folder, or give --whole-vault to let the token see the whole vault.", usage: true };
		wanted = parsed.folders;
	}
	const { settings: read, warnings } = await store.read();
	// An unknown name, or one of two tokens', changes nothing: data.json is not even rewritten.
	const found = tokenNamed(read, request.name);
	if ("error" in found) return { error: found.error, usage: false };
	let record = found.token;
	if (wanted !== null) {
		const folders = wanted;
		let missing: string | null = null;
		const settings = await store.update((current) => {
			const saved = setTokenFolders(current, record.name, folders, record.hash);
			if ("error" in saved) {
				missing = saved.error;
				return current;
			}
			return saved.settings;
		});
		if (missing !== null) return { error: missing, usage: false };
		record = settings.tokens.find((candidate) => candidate.hash === record.hash) ?? record;
		warnings.push(...(await missingFolderWarnings(request.root, folders)));
	}
	const folders = record.folders ?? [];
	const out = request.json ? `${JSON.stringify({ name: record.name, folders })}\n` : `Folders of "${record.name}": ${tokenFoldersText(record)}\n`;
	return { out, warnings };
}
