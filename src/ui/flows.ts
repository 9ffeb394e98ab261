import { Notice } from "obsidian";
import { addToken, revokeToken } from "../auth/tokenList";
import type { TokenLevel } from "../auth/tokens";
import type VaultMcpPlugin from "../main";
import { ConfirmModal, CreateTokenModal, SERVER_DISCLOSURE, TokenCreatedModal, WRITE_DISCLOSURE } from "./modals";

/**
 * What happens when a person flips a switch or presses a button: disclosures before anything
 * starts, confirmations before anything is taken away. Each flow ends in plugin.updateSettings.
 */

/** Switches the server on (after the disclosure, the first time) or off. `onDecline` resets the toggle. */
export function setServerEnabled(plugin: VaultMcpPlugin, enabled: boolean, onDecline: () => void = () => undefined): void {
	if (!enabled) {
		void plugin.updateSettings({ serverEnabled: false });
		return;
	}
	if (plugin.settings.disclosureAccepted) {
		void plugin.updateSettings({ serverEnabled: true });
		return;
	}
	new ConfirmModal(plugin.app, "Before the server starts", SERVER_DISCLOSURE, "I understand, start the server", async () => {
		await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true });
	}, onDecline).open();
}

/** Allows writing (after its own disclosure, the first time) or stops it. */
export function setWriteEnabled(plugin: VaultMcpPlugin, enabled: boolean, onDecline: () => void = () => undefined): void {
	if (!enabled) {
		void plugin.updateSettings({ writeEnabled: false });
		return;
	}
	if (plugin.settings.writeDisclosureAccepted) {
		void plugin.updateSettings({ writeEnabled: true });
		return;
	}
	new ConfirmModal(plugin.app, "Allow apps to write to this vault?", WRITE_DISCLOSURE, "Allow writing", async () => {
		await plugin.updateSettings({ writeDisclosureAccepted: true, writeEnabled: true });
	}, onDecline).open();
}

/** Asks for a name and level, creates the token, and shows it once. */
export function createTokenFlow(plugin: VaultMcpPlugin, onCreated: () => void = () => undefined): void {
	new CreateTokenModal(plugin.app, async (name: string, level: TokenLevel) => {
		const made = addToken(plugin.settings, name, level);
		if ("error" in made) return made.error;
		await plugin.updateSettings({ tokens: made.settings.tokens });
		new TokenCreatedModal(plugin.app, made.token, name.trim(), plugin.connectionPort()).open();
		onCreated();
		return null;
	}).open();
}

/** Revokes a token after confirmation; the running server refuses it from the next request. */
export function revokeTokenFlow(plugin: VaultMcpPlugin, name: string, onRevoked: () => void = () => undefined): void {
	new ConfirmModal(
		plugin.app,
		`Revoke "${name}"?`,
		["Apps using this token lose access at once. This cannot be undone; make a new token to reconnect them."],
		"Revoke",
		async () => {
			const revoked = revokeToken(plugin.settings, name);
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
