import { MAX_TOKEN_NAME_LENGTH } from "../config/limits";
import type { VaultMcpSettings } from "../config/settings";
import { generateToken, type TokenLevel } from "./tokens";

/** Adds a new token to the settings. Returns the token, to be shown once, or why it cannot be made. */
export function addToken(
	settings: VaultMcpSettings,
	name: string,
	level: TokenLevel,
): { settings: VaultMcpSettings; token: string } | { error: string } {
	const trimmed = name.trim();
	if (trimmed === "" || trimmed.length > MAX_TOKEN_NAME_LENGTH) {
		return { error: `A token name must be 1 to ${MAX_TOKEN_NAME_LENGTH} characters.` };
	}
	if (settings.tokens.some((record) => record.name === trimmed)) {
		return { error: `A token named "${trimmed}" already exists. Revoke it first, or choose another name.` };
	}
	const { token, record } = generateToken(trimmed, level);
	return { settings: { ...settings, tokens: [...settings.tokens, record] }, token };
}

/** Removes the token with this name; an error if there is none. */
export function revokeToken(settings: VaultMcpSettings, name: string): { settings: VaultMcpSettings } | { error: string } {
	if (!settings.tokens.some((record) => record.name === name)) {
		return { error: `No token named "${name}".` };
	}
	return { settings: { ...settings, tokens: settings.tokens.filter((record) => record.name !== name) } };
}
