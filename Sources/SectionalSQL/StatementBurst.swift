/// Statements made one after another on one thread, before it waits, go to
/// the database together.
///
/// A page is answered on the server's thread until it first waits, and
/// its loads start there one after another, each running until its first
/// wait. Inside `together`:
/// - On SQLite, the reads made on this thread share one read transaction
///   on its connection, begun at the first and ended when `together`
///   returns: a page's session, layout and sections are read from one
///   snapshot, and the transaction is begun and ended once instead of at
///   every statement (its shared-memory lock was also where two threads
///   reading at once waited for each other).
/// - On PostgreSQL, each load would hand its statement to the pipeline's
///   thread and wake it, and the pipeline would send them one by one, a
///   write and a sync each. A pipeline keeps the statements handed over on
///   this thread and gets them all at the end, woken once. A load's work
///   before its first wait holds back the statements kept before it, so a
///   burst is for loads that reach their read at once.
///
/// What runs after a wait (on whatever thread it resumes) is outside the
/// burst: its reads see the database as it is then, and its statements go
/// at once.
public enum StatementBurst {
    /// Runs `body` on this thread, then ends the read transactions begun
    /// meanwhile and hands the statements kept to their pipelines. Nested,
    /// the outermost one does.
    public static func together(_ body: () -> Void) {
        let burst = Burst.ofThisThread
        guard !burst.isOpen else { return body() }
        burst.isOpen = true
        body()
        burst.isOpen = false
        burst.endReads()
        burst.handOverKept()
    }

    /// Ends the read transactions of the burst open on this thread now: a
    /// write is coming, and what this thread reads after it must see it (the
    /// write may be answered without the caller's task ever waiting). A read
    /// after this begins a new transaction of the burst.
    static func endReadsOnThisThread() { Burst.openOnThisThread?.endReads() }

    /// Begins a read transaction on `slot`'s connection for the burst open
    /// on this thread, if one is open and it has none yet.
    static func shareRead(of slot: ReaderSlot) {
        guard let burst = Burst.openOnThisThread, !burst.reading.contains(where: { $0 === slot }) else { return }
        // Not begun (the pool closed meanwhile): each read goes on its own, and fails as it would.
        guard (try? slot.use { try $0.query("BEGIN", []) }) != nil else { return }
        burst.reading.append(slot)
    }

    /// Keeps `statement` for `pipeline` until the burst open on this thread
    /// ends; `false`, keeping nothing, when none is open.
    package static func keep(_ statement: AnyObject, for pipeline: some BurstPipeline) -> Bool {
        guard let burst = Burst.openOnThisThread else { return false }
        burst.kept.append((pipeline, statement))
        return true
    }
}

/// A pipeline that takes the statements of a burst at its end.
package protocol BurstPipeline: AnyObject {
    /// The statements kept for this pipeline during a burst, in the order they came.
    func handOver(kept statements: [AnyObject])
}

/// A thread's burst: whether one is open, the statements kept in it and
/// the connections reading in it.
///
/// A thread's own. Its fields are not checked for overlapping access at run
/// time (`@exclusivity(unchecked)`; a page's reads made ten checks): no
/// access to them is held across a call that reaches them again.
private final class Burst {
    @exclusivity(unchecked) var isOpen = false
    @exclusivity(unchecked) var kept: [(pipeline: any BurstPipeline, statement: AnyObject)] = []
    /// This thread's connections with a read transaction open for the burst.
    @exclusivity(unchecked) var reading: [ReaderSlot] = []

    static var ofThisThread: Burst { ofEachThread.current }

    static var openOnThisThread: Burst? {
        guard let burst = ofEachThread.existing, burst.isOpen else { return nil }
        return burst
    }

    /// Ends each read transaction begun in the burst. A read that failed may
    /// have ended it already; then there is nothing to end.
    func endReads() {
        guard !reading.isEmpty else { return }
        for slot in reading { try? slot.use { $0.endTransaction() } }
        reading.removeAll(keepingCapacity: true)
    }

    /// Each pipeline's statements, in one hand-over a pipeline.
    func handOverKept() {
        guard !kept.isEmpty else { return }
        let all = kept
        kept.removeAll(keepingCapacity: true)
        var handed: [ObjectIdentifier] = []
        for (pipeline, _) in all where !handed.contains(ObjectIdentifier(pipeline)) {
            handed.append(ObjectIdentifier(pipeline))
            pipeline.handOver(kept: all.compactMap { $0.pipeline === pipeline ? $0.statement : nil })
        }
    }

    /// Each thread's burst, released when the thread ends.
    private static let ofEachThread = PerThread { Burst() }
}
