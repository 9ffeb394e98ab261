import type { App } from "obsidian";
import type { ActivityRecord } from "../activity";
import type { ToolRightSubject } from "../auth/rights";
import type { VaultMcpSettings } from "../config/settings";
import type { WriteJournal } from "../journal/entry";
import type { UndoOutcome } from "../journal/undo";
import type { ServiceStatus } from "../service";

/** A tool as the settings tab lists it: its name, its title for people, and whether it writes. */
export interface ToolSummary extends ToolRightSubject {
	title: string;
}

/**
 * What the interface (settings tab, flows) asks of the plugin, and nothing more. `main.ts`
 * implements it; ui/ imports it as a type only, so ui/ never imports main.ts and no import circle
 * runs through the plugin class.
 */
export interface VaultMcpPort {
	/** Obsidian's app, which the modals open in. */
	readonly app: App;
	/** The settings in force; change them through `updateSettings`. */
	readonly settings: VaultMcpSettings;
	/** Changes settings, saves them and makes the server match. */
	updateSettings(change: Partial<VaultMcpSettings>): Promise<ServiceStatus>;
	/** The server's state and its activity log (metadata only). */
	readonly service: {
		readonly status: ServiceStatus;
		readonly activity: { list(): readonly ActivityRecord[]; clear(): void };
	};
	/** The port clients should use: the one the server listens on, else the configured one. */
	connectionPort(): number;
	/** Symbolic links in the vault folder that the jail hides. */
	hiddenLinks(): readonly string[];

	/** Every tool the server has, in the order clients list them: the rights dropdowns follow it. */
	readonly tools: readonly ToolSummary[];
	/** The write journal, read by the Activity section. */
	readonly journal: Pick<WriteJournal, "list" | "get">;
	/** Undoes one journalled call, as `vault-mcp undo` does, recorded as an undo by "you". */
	undoChange(callId: string): Promise<UndoOutcome>;
}
