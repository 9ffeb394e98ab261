import type { EventRef } from "obsidian";

type Callback = (...args: never[]) => unknown;

interface Registration extends EventRef {
	/** The events it was registered on, as Obsidian's EventRef names them: `Component.registerEvent` calls `e.offref(ref)` at unload. */
	e: HostEvents;
	name: string;
	callback: Callback;
}

/** Obsidian's `Events` (on / offref / trigger) for the headless host. A throwing listener does not stop the others. */
export class HostEvents {
	private readonly listeners = new Map<string, Set<Registration>>();

	on(name: string, callback: Callback): EventRef {
		const registration: Registration = { e: this, name, callback };
		let set = this.listeners.get(name);
		if (!set) this.listeners.set(name, (set = new Set()));
		set.add(registration);
		return registration;
	}

	offref(ref: EventRef): void {
		const registration = ref as Registration;
		this.listeners.get(registration.name)?.delete(registration);
	}

	trigger(name: string, ...args: unknown[]): void {
		for (const registration of [...(this.listeners.get(name) ?? [])]) {
			try {
				(registration.callback as (...values: unknown[]) => unknown)(...args);
			} catch (error) {
				// Like Obsidian: one listener's bug is reported, and the rest still hear the event.
				console.error(`vault-mcp: a "${name}" listener failed:`, error instanceof Error ? error.name : typeof error);
			}
		}
	}

	/** How many listeners are registered, over all events (for leak tests). */
	get listenerCount(): number {
		let count = 0;
		for (const set of this.listeners.values()) count += set.size;
		return count;
	}
}
