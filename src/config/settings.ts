import { z } from "zod";
import { TOOL_RIGHTS, WRITE_TOOLS_BEFORE_RIGHTS, type ToolRight } from "../auth/rights";
import { ENGLISH_STOP_WORDS } from "../search/stopWords";
import { DEFAULT_SEARCH_LANGUAGE, SEARCH_LANGUAGES, type SearchLanguage } from "../search/languages";
import type { TokenRecord } from "../auth/tokens";
import {
	DEFAULT_APPROVAL_TIMEOUT_SECONDS,
	MAX_APPROVAL_TIMEOUT_SECONDS,
	MIN_APPROVAL_TIMEOUT_SECONDS,
	DEFAULT_PORT,
	DEFAULT_RATE_LIMIT_PER_MINUTE,
	DEFAULT_WRITE_BYTES_PER_MINUTE,
	DEFAULT_WRITE_CALLS_PER_MINUTE,
	MAX_PORT,
	MIN_PORT,
} from "./limits";
import { entriesNamingNoFolder, entriesSpeltAsElsewhere, normalizeFolderList, type VaultRoot } from "../paths/spelling";
import { parseTokenFolders } from "../paths/tokenFolders";

export { normalizeFolderList };

/**
 * data.json holds something that cannot be read as settings. Starting on defaults would serve
 * every excluded folder and drop every token, so the server does not start; the file is kept.
 */
export class UnreadableSettingsError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "UnreadableSettingsError";
	}
}

/** The plugin's settings as kept in `<vault>/<configDir>/plugins/vault-mcp/data.json`. */
export interface VaultMcpSettings {
	/** Schema version, for migrations. */
	version: number;
	serverEnabled: boolean;
	port: number;
	/** Writing is a second, separate switch: off unless a person turns it on. */
	writeEnabled: boolean;
	/** New daily notes made by the write tools are outlines (bullets), not freeform text. */
	dailyNotesAreOutlines: boolean;
	/** Vault-relative folders no tool may see or change. */
	excludedFolders: string[];
	/** Notes in this folder are offered as MCP prompts; empty = no prompts. */
	promptsFolder: string;
	rateLimitPerMinute: number;
	/** Write tool calls a minute per token. */
	writeCallsPerMinute: number;
	/** Bytes of write tool arguments a minute per token. */
	writeBytesPerMinute: number;
	tokens: TokenRecord[];
	/** The person has read and accepted what turning the server on means. */
	disclosureAccepted: boolean;
	/** The person has read and accepted what allowing writes means. */
	writeDisclosureAccepted: boolean;
	showStatusBar: boolean;
	/** How long a tool call set to Ask waits for the person's decision. */
	approvalTimeoutSeconds: number;
	/** Words a search query need not match, though they rank a note higher when it holds them. */
	searchStopWords: string[];
	/** Whose word forms search matches (`renamed` finds `renaming` in English), or `none`. */
	searchLanguage: SearchLanguage;
}

const SETTINGS_VERSION = 1;

/** Settings for a vault that has never had the plugin. */
export function defaultSettings(): VaultMcpSettings {
	return {
		version: SETTINGS_VERSION,
		serverEnabled: false,
		port: DEFAULT_PORT,
		writeEnabled: false,
		dailyNotesAreOutlines: false,
		excludedFolders: [],
		promptsFolder: "Prompts",
		rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
		writeCallsPerMinute: DEFAULT_WRITE_CALLS_PER_MINUTE,
		writeBytesPerMinute: DEFAULT_WRITE_BYTES_PER_MINUTE,
		tokens: [],
		disclosureAccepted: false,
		writeDisclosureAccepted: false,
		showStatusBar: true,
		approvalTimeoutSeconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS,
		searchStopWords: [...ENGLISH_STOP_WORDS],
		searchLanguage: DEFAULT_SEARCH_LANGUAGE,
	};
}

const tokenRecordSchema = z.object({
	name: z.string().min(1),
	level: z.enum(["read", "write"]),
	hash: z.string().regex(/^[0-9a-f]{64}$/),
	displayPrefix: z.string(),
	created: z.string(),
	lastUsed: z.string().nullable(),
	// A right that is not one of the three is checked per tool below, so one typo does not cost the whole token.
	rights: z.record(z.string(), z.unknown()).optional(),
	// A folders list that is not a list of strings drops the token: ignoring it would widen the token to the whole vault.
	folders: z.array(z.string()).optional(),
});

/** A stored right, or deny for anything else: a hand-edited typo ("Ask") fails closed for that tool alone. */
function readRight(value: unknown): ToolRight {
	return TOOL_RIGHTS.find((right) => right === value) ?? "deny";
}

/** Why an entry spelt as a place elsewhere (`entriesSpeltAsElsewhere`) is told of, without its text. */
const SPELT_AS_ELSEWHERE = 'with "~", "file:", a Windows drive or device path: read as a folder of that name inside the vault, never there';

/** One schema per field, so a broken field falls back alone and the rest of the file is kept. */
const fieldSchemas = {
	serverEnabled: z.boolean(),
	port: z.number().int().min(MIN_PORT).max(MAX_PORT),
	writeEnabled: z.boolean(),
	dailyNotesAreOutlines: z.boolean(),
	promptsFolder: z.string(),
	rateLimitPerMinute: z.number().int().min(1),
	writeCallsPerMinute: z.number().int().min(1),
	writeBytesPerMinute: z.number().int().min(1),
	disclosureAccepted: z.boolean(),
	writeDisclosureAccepted: z.boolean(),
	showStatusBar: z.boolean(),
	approvalTimeoutSeconds: z.number().int().min(MIN_APPROVAL_TIMEOUT_SECONDS).max(MAX_APPROVAL_TIMEOUT_SECONDS),
	searchStopWords: z.array(z.string()),
	searchLanguage: z.enum(SEARCH_LANGUAGES),
} as const;

/** The settings read from data.json, and a line for each value that was replaced by its default. */
export interface ParsedSettings {
	settings: VaultMcpSettings;
	warnings: string[];
}

/**
 * Reads whatever data.json held into settings. A value of the wrong type or a broken token record
 * falls back to its default (a dropped token fails closed), with a warning that names the field
 * (never its value, which could be a secret pasted into the wrong place). Throws
 * UnreadableSettingsError when the whole file, or the excluded folders, cannot be read: those must
 * never silently become defaults. `vaultRoot` (the vault's absolute path, which every store knows)
 * lets a folder given as an absolute path inside the vault name that folder, as the settings tab,
 * the token window and the CLI's flags read it.
 */
export function parseSettings(raw: unknown, vaultRoot?: VaultRoot): ParsedSettings {
	const settings = defaultSettings();
	const warnings: string[] = [];
	if (raw === null || raw === undefined) return { settings, warnings };
	if (typeof raw !== "object" || Array.isArray(raw)) throw new UnreadableSettingsError("data.json is not a settings object");
	const record = raw as Record<string, unknown>;
	// Exclusions fail closed: a broken list must never mean "nothing is excluded".
	if ("excludedFolders" in record) {
		const folders = z.array(z.string()).safeParse(record.excludedFolders);
		if (!folders.success) throw new UnreadableSettingsError('data.json\'s "excludedFolders" is not a list of folder names');
		settings.excludedFolders = folders.data;
	}
	const fallback = (field: string) => warnings.push(`settings: "${field}" is not valid; using the default`);

	for (const [field, schema] of Object.entries(fieldSchemas)) {
		if (!(field in record)) continue;
		const parsed = schema.safeParse(record[field]);
		if (parsed.success) (settings as unknown as Record<string, unknown>)[field] = parsed.data;
		else fallback(field);
	}
	if ("tokens" in record) {
		if (Array.isArray(record.tokens)) {
			for (const [index, candidate] of record.tokens.entries()) {
				const parsed = tokenRecordSchema.safeParse(candidate);
				if (!parsed.success) {
					warnings.push(`settings: token record ${index} is not valid and was dropped`);
					continue;
				}
				const { rights, folders, ...fields } = parsed.data;
				const checkedFolders = parseTokenFolders(folders ?? [], vaultRoot);
				// A list of blanks (`[""]`) is no folder at all: read as none, it gave the token the whole vault.
				if ("error" in checkedFolders || (folders !== undefined && folders.length > 0 && checkedFolders.folders.length === 0)) {
					// Fails closed: a token whose folders cannot be read could otherwise see the whole vault.
					warnings.push(`settings: token record ${index}'s folders are not valid and the token was dropped`);
					continue;
				}
				// Kept (it sees only a folder of that name, never there), and the person told: it named no folder they meant.
				if (entriesSpeltAsElsewhere(folders ?? [], vaultRoot).length > 0)
					warnings.push(
						`settings: token record ${index}'s folders hold an entry starting ${SPELT_AS_ELSEWHERE} (the token sees only that); give the folder's path inside the vault`,
					);
				const token = checkedFolders.folders.length === 0 ? fields : { ...fields, folders: checkedFolders.folders };
				if (rights === undefined) {
					// Saved before tokens had rights: it keeps what it had then, every read tool and these
					// write tools allowed; a write tool added since is not in its map, so it asks.
					settings.tokens.push({ ...token, rights: Object.fromEntries(WRITE_TOOLS_BEFORE_RIGHTS.map((tool) => [tool, "allow" as const])) });
					continue;
				}
				const read = Object.fromEntries(Object.entries(rights).map(([tool, right]) => [tool, readRight(right)]));
				for (const tool of Object.keys(rights).filter((name) => read[name] !== rights[name]))
					warnings.push(`settings: token record ${index}'s right for "${tool}" is not allow, ask or deny; it is denied`);
				settings.tokens.push({ ...token, rights: read });
			}
		} else {
			fallback("tokens");
		}
	}
	const typed = settings.excludedFolders;
	settings.excludedFolders = normalizeFolderList(typed, vaultRoot);
	// An entry that names no folder inside the vault (`../Elsewhere`) excludes nothing: the person is told, without its text.
	const ignored = entriesNamingNoFolder(typed, vaultRoot).length;
	if (ignored > 0) warnings.push(`settings: ${ignored} excluded folder entr${ignored === 1 ? "y names" : "ies name"} no folder inside the vault; ignored`);
	const elsewhere = entriesSpeltAsElsewhere(typed, vaultRoot).length;
	if (elsewhere > 0)
		warnings.push(
			`settings: ${elsewhere} excluded folder entr${elsewhere === 1 ? "y starts" : "ies start"} ${SPELT_AS_ELSEWHERE}; give the folder's path inside the vault`,
		);
	return { settings, warnings };
}
