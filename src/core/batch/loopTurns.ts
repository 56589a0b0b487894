// Turns of the event loop, one per caller (issue 30). Slots set off together (a batch's start, a resume, the end of
// a wait the service asked for) used to take their first step in one task: every /run and every status request
// goes through the editor's proxy support, ~0.5 ms of the extension host's thread each, so 64 slots at once held
// the shared host ~30-40 ms at every start (the batch bench's longest stall in its quiet runs). Each step of a slot
// now waits for a turn of its own, so other extensions' work and the editor's I/O run between two of them; one turn
// is microseconds when nothing else waits, so the pace of a batch is the same.
export class LoopTurns {
  private last: Promise<void> = Promise.resolve();

  /** Resolves in a turn of the event loop after the previous caller's, never in the same one. */
  next(): Promise<void> {
    // An immediate set from a callback of the check phase runs in the next turn of the loop, not in this one.
    const turn = this.last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.last = turn;
    return turn;
  }
}
