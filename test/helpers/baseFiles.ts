import type { BaseFile, BaseVault } from "../../src/bases/values";

/** A file of a base's vault over plain data: the pure evaluator needs no host. */
export function baseFile(path: string, properties: Record<string, unknown> | null = null, extra: Partial<BaseFile> = {}): BaseFile {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const extension = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : "";
	return {
		path,
		name,
		basename: name.replace(/\.[^.]*$/, ""),
		extension,
		folder: path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "/",
		size: 10,
		ctime: 0,
		mtime: 0,
		properties: () => properties,
		tags: () => [],
		links: () => [],
		embeds: () => [],
		...extra,
	};
}

/** A vault of these files: a link resolves to the file whose basename or path it names. */
export function baseVault(files: readonly BaseFile[]): BaseVault {
	return {
		file: (path) => files.find((entry) => entry.path === path) ?? null,
		isVisiblePath: (text) => files.some((entry) => entry.path === text),
		resolveLink: (linkpath) =>
			files.find((entry) => entry.path === linkpath || entry.path === `${linkpath}.md` || entry.basename === linkpath)?.path ?? null,
		backlinks: () => [],
		isWhereItWas: (file) => files.includes(file),
	};
}
