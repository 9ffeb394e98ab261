/**
 * Clicking through the plugin's windows in the host double's DOM, as a person would: the newest
 * open window, its buttons by their text, and a bounded wait for what a click sets off.
 */

/** One tick of the event loop and timers: long enough for a click's handlers to run. */
export const settle = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 30));

/**
 * How long `until` waits by default before it fails. A safety net only: a condition that holds ends
 * the wait at once. At 5 s, activityUi's dropdown changes (one per write tool, each a save and an
 * apply) and the tools/list asked after them did not all land in time in a run beside a second suite and two
 * busy loops (load 25-30 on 2 cores, as CI's loaded phase): the test failed with nothing wrong.
 */
const UNTIL_DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Waits (bounded) until `condition` holds: on a loaded machine a save and apply can take longer
 * than one settle. Throws when it never does, naming the condition, so a test fails where it
 * waited rather than at a later assertion (or not at all).
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = UNTIL_DEFAULT_TIMEOUT_MS): Promise<void> {
	for (const started = Date.now(); !(await condition()); await settle()) {
		if (Date.now() - started >= timeoutMs) throw new Error(`until: this did not hold within ${timeoutMs} ms: ${condition.toString()}`);
	}
}

/** The window opened last, or null when none is open. */
export function openModal(): HTMLElement | null {
	const modals = document.body.querySelectorAll<HTMLElement>(".modal-container");
	return modals[modals.length - 1] ?? null;
}

/** Clicks the button with exactly this text in the window opened last. */
export function clickModalButton(text: string): void {
	const button = [...(openModal()?.querySelectorAll("button") ?? [])].find((entry) => entry.textContent === text);
	if (!button) throw new Error(`no button "${text}" in the open modal`);
	button.click();
}

/** Takes every window off the page, as if each were closed. */
export function closeModals(): void {
	for (const modal of document.body.querySelectorAll(".modal-container")) modal.remove();
}

/**
 * Enter, as Chromium takes it: a keydown on the focused element (the page's body when nothing is), and a click when that
 * element is a button that takes clicks and no listener prevented the key. jsdom sends no click for a key.
 */
export function pressEnter(): void {
	const target = document.activeElement ?? document.body;
	const taken = target.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
	if (taken && target.tagName === "BUTTON" && !(target as HTMLButtonElement).disabled) (target as HTMLButtonElement).click();
}
