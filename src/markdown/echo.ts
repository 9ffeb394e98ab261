import { ERROR_ECHO_MAX_CHARS } from "../config/limits";

/**
 * A text as an error message quotes it: whole up to ERROR_ECHO_MAX_CHARS, else its start and how
 * long it is (`Heading Heading … (480000 characters)`). Pure. A character is never cut in half.
 */
export function echoed(text: string, max = ERROR_ECHO_MAX_CHARS): string {
	if (text.length <= max) return text;
	// A cut between the two halves of a surrogate pair would leave half a character.
	const code = text.charCodeAt(max - 1);
	const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
	return `${text.slice(0, end)}… (${text.length} characters)`;
}
