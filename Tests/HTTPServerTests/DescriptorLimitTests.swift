import Glibc
import HTTPServer
import Testing

@Suite("The open-file limit a server starts with")
struct DescriptorLimitTests {
    private func limits() -> (soft: Int, hard: Int) {
        var limit = rlimit()
        _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max))
    }

    @Test("The soft limit is raised as far as asked, never past the hard limit, and never lowered")
    func raisedWithinTheHardLimit() {
        let before = limits()
        let asked = before.soft < before.hard ? before.soft + 16 : before.soft
        #expect(DescriptorLimit.raise(toAtLeast: asked) == min(asked, before.hard))
        #expect(limits().soft == min(asked, before.hard))
        #expect(DescriptorLimit.raise(toAtLeast: 1) == limits().soft, "never lowered")
        #expect(DescriptorLimit.raise(toAtLeast: .max) == before.hard, "up to the hard limit, which is the administrator's")
    }
}
