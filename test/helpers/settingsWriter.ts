/**
 * A separate process that saves data.json the way the CLI, the plugin and a running server do,
 * many saves at once: run by the settings race test, bundled on the fly. Arguments: the vault
 * folder and a JSON list of operations. Each operation uses its own store, as separate commands would.
 */
import { FileSettingsStore } from "../../src/config/FileSettingsStore";
import { revokeToken } from "../../src/auth/tokenList";

type Operation =
	| { kind: "revoke"; name: string }
	| { kind: "rights"; name: string; tool: string; right: "allow" | "deny" }
	| { kind: "lastUse"; name: string; time: string };

async function run(root: string, operations: Operation[]): Promise<void> {
	await Promise.all(
		operations.map((operation) =>
			new FileSettingsStore(root, ".obsidian").update((settings) => {
				if (operation.kind === "revoke") {
					const revoked = revokeToken(settings, operation.name);
					return "error" in revoked ? settings : revoked.settings;
				}
				return {
					...settings,
					tokens: settings.tokens.map((token) => {
						if (token.name !== operation.name) return token;
						if (operation.kind === "lastUse") return { ...token, lastUsed: operation.time };
						return { ...token, rights: { ...token.rights, [operation.tool]: operation.right } };
					}),
				};
			}),
		),
	);
}

const [root, operations] = process.argv.slice(2);
run(root ?? "", JSON.parse(operations ?? "[]") as Operation[]).then(
	() => process.stdout.write("done\n"),
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
		process.exitCode = 1;
	},
);
