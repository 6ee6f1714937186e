import Testing

@testable import FeedApp

@Suite("Deadline, streaming and simulation flags")
struct SimulationOptionsTests {
    @Test("--simulate, --section-timeout and --no-stream set what they say")
    func flags() throws {
        let options = try LaunchOptions.parse([
            "--simulate", "credit-score=delay:2s", "--simulate", "alerts=error", "--simulate", "sleep=hang", "--simulate", "workout=error:2",
            "--section-timeout", "300ms", "--no-stream",
        ])
        #expect(
            options.simulatedFaults == ["credit-score": .delay(.seconds(2)), "alerts": .error, "sleep": .hang, "workout": .failsFirst(2)])
        #expect(options.sectionTimeout == .milliseconds(300))
        #expect(!options.streaming)
        #expect(
            options.appSettings
                == AppSettings(sectionTimeout: .milliseconds(300), streaming: false, simulatedFaults: options.simulatedFaults, postsPerMinute: 60))
    }

    @Test("Simulation is off by default")
    func offByDefault() throws {
        let options = try LaunchOptions.parse([])
        #expect(options.simulatedFaults.isEmpty)
        #expect(options.sectionTimeout == .seconds(1))
        #expect(options.streaming)
        #expect(LaunchOptions.help.contains("Simulation"))
    }

    @Test(
        "A malformed value names the flag and the expected form",
        arguments: [
            ["--simulate", "credit-score"], ["--simulate", "credit-score=slow"], ["--simulate", "=error"],
            ["--simulate", "alerts=delay:soon"], ["--simulate", "alerts=error:0"], ["--simulate", "alerts=error:twice"], ["--section-timeout", "0s"],
            ["--section-timeout", "fast"], ["--section-timeout", "-1s"],
        ])
    func malformed(arguments: [String]) {
        #expect(throws: LaunchOptions.Problem.self) { try LaunchOptions.parse(arguments) }
    }

    @Test("Durations read as people type them", arguments: [("300ms", 300), ("2s", 2000), ("1.5s", 1500), ("0ms", 0)])
    func durations(text: String, milliseconds: Int64) {
        #expect(parseDuration(text) == .milliseconds(milliseconds))
    }

    @Test("Every simulated section id must exist; the app knows them all")
    func sectionIDs() {
        #expect(allSectionIDs.contains("credit-score"))
        #expect(allSectionIDs.contains("sleep"))
    }
}

@Suite("Simulated hangs")
struct SimulatedHangTests {
    @Test("A hang ends as soon as its task is cancelled, with a cancellation error")
    func hangEndsOnCancellation() async throws {
        let hang = Task { try await SimulatedFault.hang.apply { 42 } }
        try await Task.sleep(for: .milliseconds(20))
        hang.cancel()
        let result = await hang.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("A hang cancelled before it starts waiting ends too")
    func cancelledBeforeWaiting() async throws {
        let hang = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await SimulatedFault.hang.apply { 42 }
        }
        let result = await hang.result
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
