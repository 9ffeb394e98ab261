import { NodeHost } from "../../src/headless/NodeHost";
import type { Scope } from "../../src/vault/scope";
import { makeVault, removeDir } from "./vault";

/** A temp vault holding `files`, opened as the headless host the tools run on; `close` removes it. */
export interface OpenVault {
	root: string;
	host: NodeHost;
	/** The scope with these folders excluded (the config folder is always out of scope). */
	scope(...excludedFolders: string[]): Scope;
	close(): Promise<void>;
}

export async function openVault(files: Record<string, string>): Promise<OpenVault> {
	const root = await makeVault(files);
	const host = await NodeHost.open(root);
	return {
		root,
		host,
		scope: (...excludedFolders) => ({ configDir: host.vault.configDir, excludedFolders }),
		close: async () => {
			await host.close();
			await removeDir(root);
		},
	};
}
