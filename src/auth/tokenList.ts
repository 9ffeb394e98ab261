import { MAX_TOKEN_NAME_LENGTH } from "../config/limits";
import type { VaultMcpSettings } from "../config/settings";
import { applyRightChanges, effectiveRight, type ToolRight, type ToolRightSubject, type ToolRights } from "./rights";
import { generateToken, type TokenLevel, type TokenRecord } from "./tokens";

/**
 * Adds a new token to the settings. Returns the token, to be shown once, or why it cannot be made.
 * Without `rights` the token may use every tool of its level at once.
 */
export function addToken(
	settings: VaultMcpSettings,
	name: string,
	level: TokenLevel,
	rights?: ToolRights,
	folders: readonly string[] = [],
): { settings: VaultMcpSettings; token: string } | { error: string } {
	const trimmed = name.trim();
	if (trimmed === "" || trimmed.length > MAX_TOKEN_NAME_LENGTH) {
		return { error: `A token name must be 1 to ${MAX_TOKEN_NAME_LENGTH} characters.` };
	}
	if (settings.tokens.some((record) => record.name === trimmed)) {
		return { error: `A token named "${trimmed}" already exists. Revoke it first, or choose another name.` };
	}
	const { token, record } = generateToken(trimmed, level, rights, new Date(), folders);
	return { settings: { ...settings, tokens: [...settings.tokens, record] }, token };
}

/**
 * Removes one token: the one `tokenNamed` finds for this name or short id, or with `tokenHash` the token of that name and
 * hash (the settings tab's, under one of two tokens of a name). An error if there is none, or (without a hash) if the name
 * is two tokens': a revoke by name removed every token of it.
 */
export function revokeToken(settings: VaultMcpSettings, nameOrId: string, tokenHash?: string): { settings: VaultMcpSettings } | { error: string } {
	const found =
		tokenHash === undefined
			? tokenNamed(settings, nameOrId)
			: (settings.tokens.find((record) => record.name === nameOrId && record.hash === tokenHash) ?? { error: unknownTokenMessage(settings, nameOrId) });
	if ("error" in found) return found;
	const hash = "token" in found ? found.token.hash : found.hash;
	// By hash: a record copied by hand under another name holds the same secret, which must stop working too.
	return { settings: { ...settings, tokens: settings.tokens.filter((record) => record.hash !== hash) } };
}

/**
 * The settings with one tool's right changed for one token ("Always allow" in the approval window
 * or the terminal). The same settings object when there is nothing to change: the token was
 * revoked meanwhile, or the tool is unknown. With `tokenHash`, only the token of that hash: a
 * token revoked and another made with its name meanwhile (in data.json, before the server read
 * it again) is another token, and a click about the first does not change the second's rights.
 */
export function withToolRight(
	settings: VaultMcpSettings,
	tokenName: string,
	tool: string,
	right: ToolRight,
	tools: readonly ToolRightSubject[],
	tokenHash?: string,
): VaultMcpSettings {
	const token = settings.tokens.find((record) => record.name === tokenName && (tokenHash === undefined || record.hash === tokenHash));
	const changed = token ? applyRightChanges(token, { [right]: [tool] }, tools) : null;
	if (!changed || "error" in changed) return settings;
	const saved = setTokenRights(settings, tokenName, changed.rights, tokenHash);
	return "error" in saved ? settings : saved.settings;
}

/**
 * "Always allow" as it is saved: `withToolRight` only where the token's right for the tool is Ask in
 * `settings`, else the same object. Given the settings file as it is now (read under its lock), a
 * Deny saved since the question was asked stays: the running server reads the file again within
 * about a second, and a `token rights --deny` saved in that second was raised back to Allow by an
 * answer checked against the server's older copy.
 */
export function withAskRaised(
	settings: VaultMcpSettings,
	tokenName: string,
	tool: string,
	right: ToolRight,
	tools: readonly ToolRightSubject[],
	tokenHash?: string,
): VaultMcpSettings {
	const token = settings.tokens.find((record) => record.name === tokenName && (tokenHash === undefined || record.hash === tokenHash));
	const subject = tools.find((known) => known.name === tool);
	if (!token || !subject || effectiveRight(token, subject, true) !== "ask") return settings;
	return withToolRight(settings, tokenName, tool, right, tools, tokenHash);
}

/**
 * Replaces the rights of the token with this name; an error if there is none. With `tokenHash`, only the token of that
 * hash: data.json edited by hand can hold two tokens of one name, and "always" on one's question gave the other its rights.
 */
export function setTokenRights(
	settings: VaultMcpSettings,
	name: string,
	rights: ToolRights,
	tokenHash?: string,
): { settings: VaultMcpSettings } | { error: string } {
	const isIt = (record: TokenRecord) => record.name === name && (tokenHash === undefined || record.hash === tokenHash);
	if (!settings.tokens.some(isIt)) return { error: unknownTokenMessage(settings, name) };
	const tokens = settings.tokens.map((record): TokenRecord => (isIt(record) ? { ...record, rights } : record));
	return { settings: { ...settings, tokens } };
}

/**
 * The one token a command names (`token rights`, `token folders`, `token revoke`): by its name, or by its short id, the
 * first characters `token list` and the settings tab show (`vmcp_Ab3d…`, the "…" optional). An error if there is none, or
 * if the words fit two or more tokens: data.json edited by hand can hold two tokens of one name (the tab and the CLI refuse
 * to make one), and a change by name was saved into every one of them. The error lists them by their short ids.
 */
export function tokenNamed(settings: VaultMcpSettings, nameOrId: string): { token: TokenRecord } | { error: string } {
	const id = nameOrId.replace(/(?:…|\.\.\.)$/u, "");
	const fits = settings.tokens.filter((record) => record.name === nameOrId || record.displayPrefix === id);
	if (fits[0] === undefined) return { error: unknownTokenMessage(settings, nameOrId) };
	if (fits.length === 1) return { token: fits[0] };
	const ids = fits.map((record) => `${record.displayPrefix}…`);
	if (new Set(ids).size < ids.length) {
		return {
			error: `${fits.length} tokens fit "${nameOrId}" in data.json (${ids.join(", ")}) and their short ids do not tell them apart: data.json was edited by hand. Change one token in Obsidian (Settings → Vault MCP lists each token apart), or revoke them there and make a new token.`,
		};
	}
	return {
		error: `${fits.length} tokens fit "${nameOrId}" in data.json (${ids.join(", ")}): it was edited by hand, and a change by name would reach every one of them. Name one by its short id instead of its name (as \`token list\` shows it, e.g. ${ids[0] ?? ""}).`,
	};
}

/**
 * Limits the token with this name to `folders` (already checked by `parseTokenFolders`); none: the whole vault again. With
 * `tokenHash`, only the token of that hash (the settings tab's, under one of two tokens of a name).
 */
export function setTokenFolders(
	settings: VaultMcpSettings,
	name: string,
	folders: readonly string[],
	tokenHash?: string,
): { settings: VaultMcpSettings } | { error: string } {
	const isIt = (record: TokenRecord) => record.name === name && (tokenHash === undefined || record.hash === tokenHash);
	if (!settings.tokens.some(isIt)) return { error: unknownTokenMessage(settings, name) };
	const tokens = settings.tokens.map((record): TokenRecord => {
		if (!isIt(record)) return record;
		const { folders: _previous, ...rest } = record;
		return folders.length === 0 ? rest : { ...rest, folders: [...folders] };
	});
	return { settings: { ...settings, tokens } };
}

/** Words for a token's folders in lists: "whole vault", or the folders. */
export function tokenFoldersText(token: Pick<TokenRecord, "folders">): string {
	const folders = token.folders ?? [];
	return folders.length === 0 ? "whole vault" : folders.join(", ");
}

/** "No token named X", with the names there are. */
function unknownTokenMessage(settings: VaultMcpSettings, name: string): string {
	const names = settings.tokens.map((record) => `"${record.name}"`);
	return `No token named "${name}". ${names.length === 0 ? "There are no tokens." : `The tokens are: ${names.join(", ")}.`}`;
}
