#if canImport(Glibc)
    import Glibc
#endif

/// Work waiting for a pool thread, first in first out; the threads sleep
/// on it while it is empty.
///
/// A C library lock and condition, not `Mutex` and a semaphore: the
/// queue is taken by every caller and every pool thread, and `Mutex`'s
/// contended path on Linux is a priority-inheritance futex, a system call
/// into the kernel's real-time mutex each time.
final class JobQueue<Job>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [Job] = []
    private var head = 0
    private var closed = false
    /// Threads asleep in `next()`: a job added wakes one only if one sleeps.
    private var sleeping = 0

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Adds `job` for the next free thread. - Returns: `false` once the queue is closed; the job is not added.
    func add(_ job: Job) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !closed else { return false }
        jobs.append(job)
        if sleeping > 0 { pthread_cond_signal(condition) }
        return true
    }

    /// The oldest job, after sleeping until there is one; `nil` once the queue is closed and empty.
    func next() -> Job? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while head == jobs.count && !closed {
            sleeping += 1
            pthread_cond_wait(condition, mutex)
            sleeping -= 1
        }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            (jobs, head) = ([], 0)
        } else if head >= 64 && head * 2 >= jobs.count {
            // Under steady load the queue never drains: jobs taken must not stay held.
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    /// Jobs held, taken ones not yet let go included (for tests).
    var heldCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return jobs.count
    }

    /// Takes no more jobs; threads finish those queued, then `next()` answers `nil`.
    /// - Returns: whether it was open until now.
    func close() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !closed else { return false }
        closed = true
        pthread_cond_broadcast(condition)
        return true
    }
}
