import type { HostFile, HostWorkspace } from "../../src/host/Host";
import type { ToolContext } from "../../src/mcp/context";
import type { OpenVault } from "./hostVault";

/** What a fake Obsidian workspace was asked to open. */
export interface FakeWorkspace {
	opened: string[];
	active: HostFile | null;
	selection: string;
}

/**
 * A tool context over a temp vault whose host has an Obsidian workspace (headless hosts have
 * none): the tools that need one (`needs: "workspace"`) run against a fake that records what it was asked.
 */
export function contextWithWorkspace(vault: OpenVault, fake: FakeWorkspace, excluded: string[] = []): ToolContext {
	const workspace = {
		getLeaf: () => ({
			openFile: (file: HostFile, openState?: { eState?: { subpath?: string } }) => {
				fake.opened.push(`${file.path}${openState?.eState?.subpath ?? ""}`);
				return Promise.resolve();
			},
		}),
		getActiveFile: () => fake.active,
		get activeEditor() {
			return fake.active ? { file: fake.active, editor: { getSelection: () => fake.selection } } : null;
		},
	} as unknown as HostWorkspace;
	const host = { vault: vault.host.vault, metadataCache: vault.host.metadataCache, workspace };
	// Every tool allowed: open_note asks its right again before it opens a tab.
	const writes = { currentRight: () => "allow" };
	return { host, scope: vault.scope(...excluded), writes } as unknown as ToolContext;
}
