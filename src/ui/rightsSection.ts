import { Notice, Setting } from "obsidian";
import { applyRightChanges, effectiveRight, NEW_FILES_RIGHT, TOOL_RIGHTS, type RightsHolder, type ToolRight } from "../auth/rights";
import { setTokenRights } from "../auth/tokenList";
import type { ToolSummary, VaultMcpPort } from "./port";

const RIGHT_LABELS: Record<ToolRight, string> = { allow: "Allow", ask: "Ask", deny: "Deny" };
const GROUPS = [
	{ access: "read", heading: "Read tools" },
	{ access: "write", heading: "Write tools" },
] as const;

/** The rights a person may pick for a tool: a read tool never waits for approval. */
function rightChoices(tool: ToolSummary): readonly ToolRight[] {
	return tool.access === "read" ? ["allow", "deny"] : TOOL_RIGHTS;
}

/** Why a tool's right cannot be set for this token now, or null when it can. */
function unavailableReason(token: RightsHolder, tool: ToolSummary, writeEnabled: boolean): string | null {
	if (tool.access === "read") return null;
	if (token.level !== "write") return "Unavailable: this token may only read.";
	if (!writeEnabled) return "Unavailable while writing is switched off.";
	return null;
}

/** A tool's line under its name: its title; create_note's also says it governs the notes and folders other tools make. */
function describeTool(tool: ToolSummary): string {
	if (tool.name !== NEW_FILES_RIGHT.name) return tool.title;
	return `${tool.title}, and any note or folder another tool makes (add_task's daily note, a move into a new folder)`;
}

/** "15 allow · 3 ask": the collapsed section's summary of what the token may do now. */
function summarizeRights(token: RightsHolder, tools: readonly ToolSummary[], writeEnabled: boolean): string {
	const counts = new Map<ToolRight, number>();
	for (const tool of tools) {
		const right = effectiveRight(token, tool, writeEnabled);
		counts.set(right, (counts.get(right) ?? 0) + 1);
	}
	return TOOL_RIGHTS.filter((right) => counts.has(right))
		.map((right) => `${counts.get(right) ?? 0} ${right}`)
		.join(" · ");
}

/**
 * "Rights per tool" under one token: collapsed until opened (a details element, so the tab stays
 * short), one dropdown per tool showing the right in force, read tools first. A change is saved at
 * once; the running server reads the rights again on its next request. The token is the one of
 * `tokenHash`: data.json edited by hand can hold two tokens of one name, and a change under one
 * was saved into both.
 */
export function renderRightsSection(parent: HTMLElement, plugin: VaultMcpPort, tokenHash: string): void {
	const token = plugin.settings.tokens.find((record) => record.hash === tokenHash);
	if (!token) return;
	const writeEnabled = plugin.settings.writeEnabled;
	const details = parent.createEl("details", { cls: "vault-mcp-rights" });
	const summary = details.createEl("summary", { text: "Rights per tool" });
	const summaryCounts = summary.createSpan({ cls: "vault-mcp-muted", text: ` (${summarizeRights(token, plugin.tools, writeEnabled)})` });
	for (const group of GROUPS) {
		details.createDiv({ cls: "vault-mcp-rights-group", text: group.heading });
		for (const tool of plugin.tools.filter((entry) => entry.access === group.access)) {
			const reason = unavailableReason(token, tool, writeEnabled);
			const row = new Setting(details).setName(tool.name).setDesc(reason ?? describeTool(tool));
			row.settingEl.toggleClass("vault-mcp-unavailable", reason !== null);
			row.addDropdown((dropdown) => {
				for (const right of rightChoices(tool)) dropdown.addOption(right, RIGHT_LABELS[right]);
				dropdown
					.setValue(effectiveRight(token, tool, writeEnabled))
					.setDisabled(reason !== null)
					.onChange(async (value) => {
						await saveRight(plugin, tokenHash, tool, value);
						const saved = plugin.settings.tokens.find((record) => record.hash === tokenHash);
						if (!saved) return;
						dropdown.setValue(effectiveRight(saved, tool, plugin.settings.writeEnabled));
						summaryCounts.setText(` (${summarizeRights(saved, plugin.tools, plugin.settings.writeEnabled)})`);
					});
			});
		}
	}
}

/** Saves one tool's right for the token (of that hash, only it), or says in a notice why it cannot be (nothing is changed then). */
async function saveRight(plugin: VaultMcpPort, tokenHash: string, tool: ToolSummary, value: string): Promise<void> {
	const right = TOOL_RIGHTS.find((known) => known === value);
	const token = plugin.settings.tokens.find((record) => record.hash === tokenHash);
	if (!token || !right) {
		new Notice(token ? `"${value}" is not a right.` : "The token was revoked meanwhile.");
		return;
	}
	const next = applyRightChanges(token, { [right]: [tool.name] }, plugin.tools);
	const saved = "error" in next ? next : setTokenRights(plugin.settings, token.name, next.rights, tokenHash);
	if ("error" in saved) {
		new Notice(saved.error);
		return;
	}
	await plugin.updateSettings({ tokens: saved.settings.tokens });
}
