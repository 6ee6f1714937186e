import Testing

@testable import SectionalSQL

/// The pool's queue: first in first out, closed after its last job, and
/// holding no job once taken even when it never empties.
@Suite("The pool's job queue")
struct JobQueueTests {
    @Test("Jobs come out in the order they went in; once closed, the queued ones still come out, new ones are refused")
    func order() {
        let queue = JobQueue<Int>()
        for job in 0..<5 { #expect(queue.add(job)) }
        #expect(queue.next() == 0 && queue.next() == 1)
        #expect(queue.close())
        #expect(!queue.close(), "already closed")
        #expect(!queue.add(5))
        #expect([queue.next(), queue.next(), queue.next()] == [2, 3, 4])
        #expect(queue.next() == nil)
    }

    @Test("Under steady load, with always a job waiting, taken jobs are let go")
    func neverDrains() {
        let queue = JobQueue<Int>()
        #expect(queue.add(0))
        for job in 1...10_000 {
            #expect(queue.add(job))
            #expect(queue.next() == job - 1)
        }
        #expect(queue.heldCount < 200, "held \(queue.heldCount) jobs for 1 waiting")
    }

    @Test("A thread asleep on an empty queue wakes for the next job")
    func wakesASleeper() async {
        let queue = JobQueue<Int>()
        // A thread of its own: waiting on the queue blocks it.
        async let taken = withCheckedContinuation { continuation in
            DedicatedThread.start { continuation.resume(returning: queue.next()) }
        }
        // Whether it is asleep yet or not, it must get the job.
        try? await Task.sleep(for: .milliseconds(20))
        #expect(queue.add(7))
        #expect(await taken == 7)
    }
}
