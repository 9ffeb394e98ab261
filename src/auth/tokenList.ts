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

/** Removes the token with this name; an error if there is none. */
export function revokeToken(settings: VaultMcpSettings, name: string): { settings: VaultMcpSettings } | { error: string } {
	if (!settings.tokens.some((record) => record.name === name)) return { error: unknownTokenMessage(settings, name) };
	return { settings: { ...settings, tokens: settings.tokens.filter((record) => record.name !== name) } };
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
 * The one token of this name, for a command that addresses a token by name (`token rights`): an error if there is none,
 * or if there are two or more. data.json edited by hand can hold two tokens of one name (the tab and the CLI refuse to make
 * one); a change by name was saved into every one of them. The error lists them by their first characters, which
 * `token list` and the settings tab show too, and says what to do.
 */
export function tokenNamed(settings: VaultMcpSettings, name: string): { token: TokenRecord } | { error: string } {
	const named = settings.tokens.filter((record) => record.name === name);
	if (named[0] === undefined) return { error: unknownTokenMessage(settings, name) };
	if (named.length === 1) return { token: named[0] };
	const shown = named.map((record) => `${record.displayPrefix}…`).join(", ");
	return {
		error: `${named.length} tokens are named "${name}" in data.json (${shown}): it was edited by hand, and a change by name would reach every one of them. Change one token's rights in Obsidian (Settings → Vault MCP lists each token apart), or revoke the name (every token of it) and make a new token.`,
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
export function unknownTokenMessage(settings: VaultMcpSettings, name: string): string {
	const names = settings.tokens.map((record) => `"${record.name}"`);
	return `No token named "${name}". ${names.length === 0 ? "There are no tokens." : `The tokens are: ${names.join(", ")}.`}`;
}
