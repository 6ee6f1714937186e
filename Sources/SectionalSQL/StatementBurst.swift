#if canImport(Glibc)
    import Glibc
#endif

/// Statements handed over one after another on one thread go to the
/// database together.
///
/// A page's loads start one after another on the thread that serves it,
/// each running until its first wait. On PostgreSQL each would hand its
/// statement to the pipeline's thread and wake it, and the pipeline would
/// send them one by one, a write and a sync each. Inside `together`, a
/// pipeline keeps the statements handed over on this thread and gets them
/// all at its end, woken once. A load's work before its first wait holds
/// back the statements kept before it, so a burst is for loads that reach
/// their read at once; a statement handed over after a load's first wait
/// (on whatever thread it resumes) goes at once, as outside a burst.
public enum StatementBurst {
    /// Runs `startLoads` on this thread, then hands the statements kept
    /// meanwhile to their pipelines. Nested, the outermost one hands them over.
    public static func together(_ startLoads: () -> Void) {
        let burst = Burst.ofThisThread
        guard !burst.isOpen else { return startLoads() }
        burst.isOpen = true
        startLoads()
        burst.isOpen = false
        burst.handOverKept()
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

/// A thread's burst: whether one is open, and the statements kept in it.
private final class Burst {
    var isOpen = false
    var kept: [(pipeline: any BurstPipeline, statement: AnyObject)] = []

    static var ofThisThread: Burst {
        if let stored = pthread_getspecific(key) { return Unmanaged<Burst>.fromOpaque(stored).takeUnretainedValue() }
        let burst = Burst()
        pthread_setspecific(key, Unmanaged.passRetained(burst).toOpaque())
        return burst
    }

    static var openOnThisThread: Burst? {
        guard let stored = pthread_getspecific(key) else { return nil }
        let burst = Unmanaged<Burst>.fromOpaque(stored).takeUnretainedValue()
        return burst.isOpen ? burst : nil
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

    /// The thread's burst, released when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { stored in
            if let stored { Unmanaged<Burst>.fromOpaque(stored).release() }
        }
        precondition(status == 0, "no thread-local key for statement bursts (pthread_key_create: \(status))")
        return key
    }()
}
