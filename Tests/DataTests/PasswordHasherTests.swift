import Foundation
import SectionalSecurity
import Testing

@Suite("Password hashes")
struct PasswordHasherTests {
    @Test("A hash verifies its own password only; no hash verifies nothing")
    func verifies() throws {
        let hasher = PasswordHasher(.minimal)
        let hash = try hasher.hash("correct horse")
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(hasher.verify("correct horse", against: hash))
        #expect(!hasher.verify("correct horsE", against: hash))
        #expect(!hasher.verify("correct horse", against: nil), "an unknown user never signs in")
        #expect(try hasher.hash("correct horse") != hash, "each hash has a salt of its own")
    }

    @Test("Checking an unknown user's password costs the CPU a wrong password's does")
    func decoyCostsTheSame() throws {
        let hasher = PasswordHasher(.interactive)
        let hash = try hasher.hash("correct horse")
        var wrong: [Double] = [], unknown: [Double] = []
        for attempt in 0..<3 {
            wrong.append(threadCPUSeconds { _ = hasher.verify("not-it-\(attempt)", against: hash) })
            unknown.append(threadCPUSeconds { _ = hasher.verify("not-it-\(attempt)", against: nil) })
        }
        // This thread's CPU time, not the wall clock: tests running beside this one cannot stretch it.
        // Without the decoy an unknown user costs thousands of times less; the band allows for shared caches.
        let ratio = wrong.min()! / unknown.min()!
        #expect(ratio > 1.0 / 3 && ratio < 3, "CPU seconds: wrong password \(wrong), unknown user \(unknown)")
    }

    @Test("A new hasher's first check costs the same for an unknown user as for a wrong password")
    func firstCheckCostsTheSame() throws {
        // The decoy is made on first use: by an unknown user's check alone, the first unknown name would cost twice what a wrong password does.
        var wrong: [Double] = [], unknown: [Double] = []
        for _ in 0..<3 {
            let known = PasswordHasher(.interactive)
            let hash = try known.hash("correct horse")
            wrong.append(threadCPUSeconds { _ = known.verify("not-it", against: hash) })
            let fresh = PasswordHasher(.interactive)
            unknown.append(threadCPUSeconds { _ = fresh.verify("not-it", against: nil) })
        }
        let ratio = wrong.min()! / unknown.min()!
        #expect(ratio > 0.7 && ratio < 1.4, "CPU seconds: wrong password \(wrong), unknown user \(unknown)")
    }

    /// The CPU time the calling thread spends in `work`.
    private func threadCPUSeconds(_ work: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        work()
        return now() - start
    }
}
