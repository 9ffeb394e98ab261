/**
 * A DOM for the host double: jsdom's document, plus the few helpers Obsidian adds to every
 * element (createEl, createDiv, createSpan, empty, setText, addClass, removeClass, toggleClass,
 * setAttr) — only those the plugin uses, with Obsidian's meaning.
 */
import { JSDOM } from "jsdom";

interface DomElementInfo {
	cls?: string | string[];
	text?: string;
	attr?: Record<string, string>;
}

if (typeof (globalThis as { document?: unknown }).document === "undefined") {
	const dom = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true });
	const shared = globalThis as Record<string, unknown>;
	for (const name of ["document", "HTMLElement", "Element", "Node", "MouseEvent", "Event", "KeyboardEvent", "DocumentFragment"]) {
		shared[name] = (dom.window as unknown as Record<string, unknown>)[name];
	}
	// Chromium's focus fixup (HTML's "focus fixup rule"): a focused control made disabled loses the focus to the page's
	// body, and keeps it off when enabled again (probed in Chromium 156: activeElement is the body after `disabled = true`,
	// a blur event fired, and Enter then clicks nothing). jsdom leaves the focus on the disabled control.
	for (const control of [dom.window.HTMLButtonElement, dom.window.HTMLInputElement, dom.window.HTMLSelectElement, dom.window.HTMLTextAreaElement]) {
		const disabled = Object.getOwnPropertyDescriptor(control.prototype, "disabled");
		if (!disabled?.get || !disabled.set) continue;
		Object.defineProperty(control.prototype, "disabled", {
			configurable: true,
			enumerable: disabled.enumerable,
			get(this: HTMLElement): boolean {
				return disabled.get?.call(this) as boolean;
			},
			set(this: HTMLElement, value: boolean) {
				// Blurred first: jsdom's blur() does nothing on a control already disabled.
				if (value && this.ownerDocument.activeElement === this) this.blur();
				disabled.set?.call(this, value);
			},
		});
	}
	const proto = (dom.window.HTMLElement as unknown as { prototype: Record<string, unknown> }).prototype;
	function createEl(this: HTMLElement, tag: string, info: DomElementInfo | string = {}): HTMLElement {
		const options = typeof info === "string" ? { cls: info } : info;
		const el = this.ownerDocument.createElement(tag);
		for (const cls of ([] as string[])
			.concat(options.cls ?? [])
			.flatMap((entry) => entry.split(" "))
			.filter(Boolean))
			el.classList.add(cls);
		if (options.text !== undefined) el.textContent = options.text;
		for (const [name, value] of Object.entries(options.attr ?? {})) el.setAttribute(name, value);
		this.appendChild(el);
		return el;
	}
	Object.assign(proto, {
		createEl,
		createDiv(this: HTMLElement, info?: DomElementInfo | string) {
			return createEl.call(this, "div", info);
		},
		createSpan(this: HTMLElement, info?: DomElementInfo | string) {
			return createEl.call(this, "span", info);
		},
		empty(this: HTMLElement) {
			while (this.firstChild) this.removeChild(this.firstChild);
		},
		setText(this: HTMLElement, text: string) {
			this.textContent = text;
		},
		addClass(this: HTMLElement, ...classes: string[]) {
			this.classList.add(...classes);
		},
		removeClass(this: HTMLElement, ...classes: string[]) {
			this.classList.remove(...classes);
		},
		toggleClass(this: HTMLElement, cls: string, value: boolean) {
			this.classList.toggle(cls, value);
		},
		setAttr(this: HTMLElement, name: string, value: string | number | boolean | null) {
			if (value === null) this.removeAttribute(name);
			else this.setAttribute(name, String(value));
		},
	});
}

/** What the plugin copied, newest last (Obsidian's Electron has a clipboard; Node 20 has none). */
export const copiedTexts: string[] = [];
const navigatorHolder = globalThis as { navigator?: { clipboard?: unknown } };
if (!navigatorHolder.navigator) Object.defineProperty(globalThis, "navigator", { value: {}, configurable: true, writable: true });
(navigatorHolder.navigator as { clipboard: unknown }).clipboard = {
	writeText: (text: string) => {
		copiedTexts.push(text);
		return Promise.resolve();
	},
};
