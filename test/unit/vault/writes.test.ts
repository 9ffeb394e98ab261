import { ensureParentFolder } from "../../../src/vault/writes";
import { openVault, type OpenVault } from "../../helpers/hostVault";

describe("ensureParentFolder", () => {
	let vault: OpenVault;
	beforeEach(async () => {
		vault = await openVault({ "Journal/Old.md": "old" });
	});
	afterEach(() => vault.close());

	test("makes the folders a new note needs, and is content when they exist", async () => {
		await ensureParentFolder(vault.host, "Journal/2026/12/2026-12-01.md");
		expect(vault.host.vault.getFolderByPath("Journal/2026/12")).not.toBeNull();
		await expect(ensureParentFolder(vault.host, "Journal/2026/12/2026-12-02.md")).resolves.toBeUndefined();
		await expect(ensureParentFolder(vault.host, "AtTheRoot.md")).resolves.toBeUndefined();
	});
});
