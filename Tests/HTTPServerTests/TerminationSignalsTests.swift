import SectionalTesting
import Synchronization
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// A drain's pause waits its whole time: another signal that interrupts it
/// (its handler runs on the waiting thread) does not end it early.
@Suite("Termination signals")
struct TerminationSignalsTests {
    @Test func anUnrelatedSignalDoesNotCutTheWaitShort() async throws {
        // A handler without SA_RESTART, so that SIGUSR1 interrupts the wait (EINTR) instead of ending the process.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        sigaction(SIGUSR1, &action, nil)
        let waiter = Mutex<pthread_t?>(nil)
        let sent = Atomic<Bool>(false)
        async let outcome = onOwnThread { () -> (signal: Int32?, waited: Duration) in
            // This thread takes SIGUSR1 (test threads may start with signals blocked).
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &usr1, nil)
            waiter.withLock { $0 = pthread_self() }
            let clock = ContinuousClock()
            let start = clock.now
            let received = TerminationSignals.wait(timeout: 0.4)
            let waited = start.duration(to: clock.now)
            // The thread lives until the signal is sent: signalling a thread that has ended
            // reads freed memory (it crashed the test process on a busy machine).
            while !sent.load(ordering: .acquiring) { usleep(1_000) }
            return (received, waited)
        }
        // Sent from a thread of its own: on two busy cores a task's sleep can outlast the whole wait.
        try await onOwnThread {
            while waiter.withLock({ $0 }) == nil { usleep(1_000) }
            usleep(50_000)
            pthread_kill(waiter.withLock { $0 }!, SIGUSR1)
            sent.store(true, ordering: .releasing)
        }
        let (received, waited) = try await outcome
        #expect(received == nil, "no SIGTERM or SIGINT came")
        #expect(waited >= .milliseconds(390), "waited \(waited) of 400 ms")
    }
}
