// Turns of the event loop, one per caller (issue 30). Slots set off together (a batch's start, a resume, the end of
// a wait the service asked for) used to take their first step in one task of the shared extension host: the gate,
// the guards, the row and the request, every /run and status request going through the editor's proxy support
// (test/unit/batch/loopTurns.test.ts: twelve /run calls in one turn). Each step of a slot now waits for a turn of
// its own, so other extensions' work and the editor's I/O run between two of them; one turn is microseconds when
// nothing else waits, so the pace of a batch is the same. What that task cost was not timed alone: the batch
// bench's stalls at a start also hold a collection (docs/decisions.md, issue 30).
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
