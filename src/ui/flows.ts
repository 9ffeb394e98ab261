import { Notice } from "obsidian";
import { initialRights } from "../auth/rights";
import { addToken, revokeToken, setTokenFolders } from "../auth/tokenList";
import { parseTokenFolders } from "../paths/tokenFolders";
import { vaultBasePath } from "../host/ObsidianHost";
import { vaultRootSpellings } from "../config/vaultRootSpellings";
import type { TokenLevel, TokenRecord } from "../auth/tokens";
import { ConfirmModal, CreateTokenModal, SERVER_DISCLOSURE, TokenCreatedModal, WRITE_DISCLOSURE } from "./modals";
import type { VaultMcpPort } from "./port";

/**
 * What happens when a person flips a switch or presses a button: disclosures before anything
 * starts, confirmations before anything is taken away. Each flow ends in plugin.updateSettings.
 */

/** A switch that, the first time it is turned on, shows a disclosure and waits for a yes. */
interface DisclosedSwitch {
	setting: "serverEnabled" | "writeEnabled";
	accepted: "disclosureAccepted" | "writeDisclosureAccepted";
	heading: string;
	paragraphs: readonly string[];
	confirmText: string;
}

const SERVER_SWITCH: DisclosedSwitch = {
	setting: "serverEnabled",
	accepted: "disclosureAccepted",
	heading: "Before the server starts",
	paragraphs: SERVER_DISCLOSURE,
	confirmText: "I understand, start the server",
};
const WRITE_SWITCH: DisclosedSwitch = {
	setting: "writeEnabled",
	accepted: "writeDisclosureAccepted",
	heading: "Allow apps to write to this vault?",
	paragraphs: WRITE_DISCLOSURE,
	confirmText: "Allow writing",
};

/** Turns a switch off at once, or on — after its disclosure the first time. `onDecline` resets the toggle. */
function flipSwitch(plugin: VaultMcpPort, target: DisclosedSwitch, enabled: boolean, onDecline: () => void): void {
	if (!enabled || plugin.settings[target.accepted]) {
		void plugin.updateSettings({ [target.setting]: enabled });
		return;
	}
	new ConfirmModal(
		plugin.app,
		target.heading,
		target.paragraphs,
		target.confirmText,
		async () => {
			await plugin.updateSettings({ [target.accepted]: true, [target.setting]: true });
		},
		onDecline,
	).open();
}

/** Switches the server on (after the disclosure, the first time) or off. */
export function setServerEnabled(plugin: VaultMcpPort, enabled: boolean, onDecline: () => void = () => undefined): void {
	flipSwitch(plugin, SERVER_SWITCH, enabled, onDecline);
}

/** Allows writing (after its own disclosure, the first time) or stops it. */
export function setWriteEnabled(plugin: VaultMcpPort, enabled: boolean, onDecline: () => void = () => undefined): void {
	flipSwitch(plugin, WRITE_SWITCH, enabled, onDecline);
}

/** Asks for a name and level, creates the token (its write tools ask first: the approval window can answer), and shows it once. */
export function createTokenFlow(plugin: VaultMcpPort, onCreated: () => void = () => undefined): void {
	new CreateTokenModal(plugin.app, async (name: string, level: TokenLevel, foldersTyped: string) => {
		const folders = parseTokenFolders(foldersTyped.split("\n"), vaultRootSpellings(vaultBasePath(plugin.app)));
		if ("error" in folders) return folders.error;
		const made = addToken(plugin.settings, name, level, initialRights(plugin.tools, level, "settings-tab"), folders.folders);
		if ("error" in made) return made.error;
		await plugin.updateSettings({ tokens: made.settings.tokens });
		new TokenCreatedModal(plugin.app, made.token, name.trim(), plugin.connectionPort()).open();
		onCreated();
		return null;
	}).open();
}

/**
 * Saves the folders typed under a token (one per line; empty: the whole vault). Returns why they
 * cannot be saved, or null. The running server reads them at the token's next call.
 */
export async function saveTokenFolders(plugin: VaultMcpPort, token: Pick<TokenRecord, "name" | "hash">, typed: string): Promise<string | null> {
	const folders = parseTokenFolders(typed.split("\n"), vaultRootSpellings(vaultBasePath(plugin.app)));
	if ("error" in folders) return folders.error;
	const saved = setTokenFolders(plugin.settings, token.name, folders.folders, token.hash);
	if ("error" in saved) return saved.error;
	await plugin.updateSettings({ tokens: saved.settings.tokens });
	return null;
}

/**
 * Revokes the token the button sits under (by hash: data.json edited by hand can hold two tokens of one name, and a revoke
 * by name removed both) after confirmation; the running server refuses it from the next request.
 */
export function revokeTokenFlow(plugin: VaultMcpPort, token: Pick<TokenRecord, "name" | "hash">, onRevoked: () => void = () => undefined): void {
	new ConfirmModal(
		plugin.app,
		`Revoke "${token.name}"?`,
		["Apps using this token lose access at once. This cannot be undone; make a new token to reconnect them."],
		"Revoke",
		async () => {
			const revoked = revokeToken(plugin.settings, token.name, token.hash);
			if ("error" in revoked) {
				new Notice(revoked.error);
				return;
			}
			await plugin.updateSettings({ tokens: revoked.settings.tokens });
			onRevoked();
		},
		() => undefined,
		true,
	).open();
}
