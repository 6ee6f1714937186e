import Synchronization

/// Read connections of the threads that read through a pool: each thread
/// that calls `ConnectionPool.read` gets a connection of its own, opened on
/// its first read and kept, with its prepared statements, for the next.
///
/// This is what lets a SQLite read run where the request is: in WAL mode a
/// reader never waits for the writer and a point query costs a few
/// microseconds, about what a hop to a pool thread and back would cost.
final class CallerReaders: Sendable {
    private let open: @Sendable () throws(SQLError) -> any SQLConnection
    /// Tells this pool's connections apart from other pools' in a thread's table.
    private let id: UInt64
    /// Every connection opened, so that `close()` reaches them all.
    private let state = Mutex<(closed: Bool, slots: [ReaderSlot])>((false, []))
    private static let nextID = Atomic<UInt64>(1)

    init(open: @escaping @Sendable () throws(SQLError) -> any SQLConnection) {
        self.open = open
        id = Self.nextID.add(1, ordering: .relaxed).oldValue
    }

    /// The calling thread's connection, opened now if it has none.
    func slotOfThisThread() throws(SQLError) -> ReaderSlot {
        let table = ThreadReaderTable.current
        if let slot = table.slot(of: id) { return slot }
        let slot = ReaderSlot(try open())
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            // Connections of threads that have ended are forgotten here.
            state.slots.removeAll { !$0.isOpen }
            state.slots.append(slot)
            return true
        }
        guard accepted else { throw SQLError.poolClosed }
        table.add(slot, for: id)
        return slot
    }

    /// What stops, from any thread, the read the calling thread runs at
    /// the time, whichever pool's: a deadline's cut of a load that reads
    /// where it is called (`sqlite3_interrupt`, through each connection's
    /// `SQLInterrupter`). The next read on the thread starts unstopped.
    static func stopperOfThisThread() -> @Sendable () -> Void { ThreadReaderTable.stopperOfThisThread }

    /// Closes every thread's connection, each once its current read ends; a read after this fails.
    func close() {
        let slots = state.withLock { state in
            state.closed = true
            return state.slots
        }
        for slot in slots { slot.close() }
    }
}

/// One thread's read connection. Used by that thread alone, under a lock
/// that only `close()`, from the thread closing the pool, ever contends.
final class ReaderSlot: @unchecked Sendable {
    private let lock = Mutex(())
    /// Read and written under `lock` alone, by accesses that reach nothing else: not checked
    /// for overlapping access at run time.
    @exclusivity(unchecked) private var connection: (any SQLConnection)?
    /// Stops the connection's current read; any thread may call it.
    let interrupter: SQLInterrupter

    init(_ connection: any SQLConnection) {
        self.connection = connection
        interrupter = connection.interrupter
    }

    var isOpen: Bool { lock.withLock { _ in connection != nil } }

    /// Runs `body` with the connection. - Throws: `SQLError.poolClosed` once closed.
    func use<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try lock.withLock { _ in
            guard let connection else { throw SQLError.poolClosed }
            return try body(connection)
        }
    }

    func close() { lock.withLock { _ in connection = nil } }
}

/// The read connections of one thread, by pool: in thread-local storage, so
/// finding a thread's connection takes no lock. Released when its thread
/// ends, and its connections closed with it.
private final class ThreadReaderTable: @unchecked Sendable {
    // Unchecked: `entries` is its thread's alone (nor checked for overlapping access at run time:
    // a page looks its slot up for every read, and no access spans a call that reaches it again);
    // only `interrupters` is shared, under its lock.
    @exclusivity(unchecked) private var entries: [(pool: UInt64, slot: ReaderSlot)] = []
    /// What stops each of its connections' reads: kept apart, for another thread to reach.
    private let interrupters = Mutex<[SQLInterrupter]>([])

    deinit {
        for entry in entries { entry.slot.close() }
    }

    func slot(of pool: UInt64) -> ReaderSlot? {
        for entry in entries where entry.pool == pool { return entry.slot }
        return nil
    }

    func add(_ slot: ReaderSlot, for pool: UInt64) {
        // Pools closed since are forgotten here.
        entries.removeAll { !$0.slot.isOpen }
        entries.append((pool, slot))
        interrupters.withLock { $0 = entries.map(\.slot.interrupter) }
    }

    /// Stops the read this thread's connections are running, if any (from any thread).
    func interruptReads() {
        for interrupter in interrupters.withLock({ $0 }) { interrupter.interrupt() }
    }

    /// What stops, from any thread, the read this thread is running.
    static var stopperOfThisThread: @Sendable () -> Void {
        let table = current
        return { table.interruptReads() }
    }

    /// This thread's table, made on first use and released when the thread ends.
    static var current: ThreadReaderTable { ofEachThread.current }

    private static let ofEachThread = PerThread { ThreadReaderTable() }
}

extension SQLError {
    /// The error of work given to a pool after it closed.
    package static let poolClosed = SQLError(code: "closed", message: "the database pool is closed")
}
