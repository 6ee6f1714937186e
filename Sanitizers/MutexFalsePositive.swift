import Foundation
// Why Sanitizers/tsan.supp suppresses races inside Mutex.withLock bodies.
//
// Four threads add 1 to a dictionary inside Synchronization.Mutex.withLock,
// 80,000 times in all. Built with `swiftc -sanitize=thread`, ThreadSanitizer
// reports "Swift access race" between two withLock bodies, yet the total is
// always exactly 80,000: the lock does serialize them. The same program with
// NSLock (a pthread mutex, which ThreadSanitizer intercepts) reports nothing.
// On Linux, Mutex takes a contended lock in `_MutexHandle._lockSlow`, inside
// libswiftSynchronization.so, which is not instrumented: ThreadSanitizer never
// sees that acquire, so it sees no order between the two bodies.
//
// `make sanitize` runs this first: it prints whether the report still happens
// with this toolchain (and so whether the suppression is still needed).
import Synchronization

final class Box: Sendable {
    let state = Mutex<[Int: Int]>([:])
}
let box = Box()
let threads = 4, rounds = 20_000
let done = DispatchSemaphore(value: 0)
for t in 0..<threads {
    Thread {
        for i in 0..<rounds {
            box.state.withLock {
                $0[i % 64, default: 0] += 1; _ = t
            }
        }
        done.signal()
    }.start()
}
for _ in 0..<threads { done.wait() }
let total = box.state.withLock { $0.values.reduce(0, +) }
print("total", total, "expected", threads * rounds)
