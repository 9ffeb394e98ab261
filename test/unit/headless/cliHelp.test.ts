import { parseArgs } from "node:util";
import { COMMANDS, commandHelp, commandNamed, helpFor, overviewHelp, usageHint } from "../../../src/headless/cliHelp";
import { VERSION } from "../../../src/version";

describe("the CLI's help, made from the command definitions", () => {
	test("every flag the parser accepts is explained, with its default, in the command's help", () => {
		for (const command of COMMANDS) {
			expect(Object.keys(command.flags).sort()).toEqual(Object.keys(command.options).sort());
			const help = commandHelp(command);
			expect(help.startsWith(`Usage: vault-mcp ${command.name} `)).toBe(true);
			for (const name of Object.keys(command.options)) expect(help).toContain(`--${name}`);
			expect(help.split("\n").filter((line) => line.trim().startsWith("default:"))).toHaveLength(Object.keys(command.flags).length);
		}
	});

	test("the overview names every command and the version", () => {
		const overview = overviewHelp();
		expect(overview).toContain(VERSION);
		for (const command of COMMANDS) expect(overview).toContain(`  ${command.name} `);
	});

	test("help topics: none is the overview, a command its help, 'token' every token action, anything else nothing", () => {
		expect(helpFor("")).toBe(overviewHelp());
		expect(helpFor("serve")).toBe(commandHelp(commandNamed("serve") ?? COMMANDS[0]!));
		const token = helpFor("token") ?? "";
		for (const command of COMMANDS.filter((candidate) => candidate.name.startsWith("token "))) expect(token).toContain(`vault-mcp ${command.name}`);
		expect(helpFor("tok")).toBeUndefined();
		expect(helpFor("rm -rf")).toBeUndefined();
	});

	test("the options parse as the parser would take them: -h is --help on every command", () => {
		for (const command of COMMANDS) expect(parseArgs({ args: ["-h"], options: command.options, allowPositionals: true }).values.help).toBe(true);
	});

	test("a usage error points at the help for that command, or at the overview", () => {
		expect(usageHint("serve")).toBe('Run "vault-mcp help serve" for the flags.');
		expect(usageHint(undefined)).toBe('Run "vault-mcp help" for the commands.');
	});
});
