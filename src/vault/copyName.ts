import { MAX_NOTE_NAME_BYTES } from "../config/limits";

/**
 * `<folder>/<name> (<label> <YYYY-MM-DD HH-mm>).<ext>` in local time, with ` 2`, ` 3`, … before the
 * closing parenthesis for `number` 1, 2, …; the name is shortened to fit the file-name limit.
 */
export function copyNameBeside(path: string, label: string, time: Date, number = 0): string {
	const slash = path.lastIndexOf("/");
	const folder = path.slice(0, slash + 1);
	const name = path.slice(slash + 1);
	const dot = name.lastIndexOf(".");
	const extension = dot > 0 ? name.slice(dot) : "";
	let base = dot > 0 ? name.slice(0, dot) : name;
	const suffix = ` (${label} ${localStamp(time)}${number === 0 ? "" : ` ${number + 1}`})${extension}`;
	while (base.length > 1 && Buffer.byteLength(base + suffix) > MAX_NOTE_NAME_BYTES) base = [...base].slice(0, -1).join("");
	return `${folder}${base}${suffix}`;
}

function localStamp(time: Date): string {
	const two = (value: number) => String(value).padStart(2, "0");
	return `${time.getFullYear()}-${two(time.getMonth() + 1)}-${two(time.getDate())} ${two(time.getHours())}-${two(time.getMinutes())}`;
}
