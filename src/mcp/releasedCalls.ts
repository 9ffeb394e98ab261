/**
 * The order of calls released by "Always allow": per token (its hash), the writes of calls answered "always" not tried
 * yet. The saved right releases the token's other calls waiting for the tool (answered by the right); each waits for
 * these first, so they are written after the call the person approved, in the order sent (released at the click's save,
 * the second of two appends was written first). One per service: a module-level map was shared by every service of the
 * process (two in tests, or the plugin loaded again in one Obsidian session), so a call of one waited for another's write.
 */
export class WritesBeforeReleased {
	private readonly byToken = new Map<string, Set<Promise<void>>>();

	/** The token's calls released from now on wait for `tried` (it resolves once the approved call's write was tried, or the call ended). */
	hold(tokenHash: string, tried: Promise<void>): void {
		const held = this.byToken.get(tokenHash) ?? new Set<Promise<void>>();
		held.add(tried);
		this.byToken.set(tokenHash, held);
		void tried.then(() => {
			held.delete(tried);
			if (held.size === 0 && this.byToken.get(tokenHash) === held) this.byToken.delete(tokenHash);
		});
	}

	/** Resolves once every write the token's released calls wait for was tried. */
	async tried(tokenHash: string): Promise<void> {
		await Promise.all([...(this.byToken.get(tokenHash) ?? [])]);
	}
}
