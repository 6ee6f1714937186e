extension SectionController {
    /// Runs the pending data loads of this controller and all its descendants
    /// concurrently, then hands each result to its controller. A load that
    /// throws marks only its own controller failed.
    ///
    /// The controllers stay in the calling task: only the `Sendable`
    /// operations and their results cross into the task group.
    @discardableResult
    public func loadTree() async -> LoadReport {
        var pending: [(controller: SectionController, load: SectionLoad)] = []
        collectPendingLoads(into: &pending)
        guard !pending.isEmpty else { return LoadReport() }

        let operations = pending.map(\.load.operation)
        let results = await withTaskGroup(of: (Int, Result<any Sendable, any Error>, Duration).self) { group in
            for (index, operation) in operations.enumerated() {
                group.addTask {
                    let clock = ContinuousClock()
                    let start = clock.now
                    do {
                        let model = try await operation()
                        return (index, .success(model), clock.now - start)
                    } catch {
                        return (index, .failure(error), clock.now - start)
                    }
                }
            }
            var results = [(Result<any Sendable, any Error>, Duration)?](repeating: nil, count: operations.count)
            for await (index, result, duration) in group { results[index] = (result, duration) }
            return results
        }

        var report = LoadReport()
        for ((controller, load), finished) in zip(pending, results) {
            guard let (result, duration) = finished else { continue }
            switch result {
            case .success(let model):
                load.deliver(model)
                controller.loadState = .loaded
                report.outcomes.append(.init(id: controller.id, status: .ok, duration: duration))
            case .failure(let error):
                controller.loadState = .failed(error)
                report.outcomes.append(.init(id: controller.id, status: .failed(String(describing: error)), duration: duration))
            }
        }
        return report
    }

    private func collectPendingLoads(into pending: inout [(controller: SectionController, load: SectionLoad)]) {
        if case .notLoaded = loadState {
            if let load = makeLoad() {
                pending.append((self, load))
            } else {
                loadState = .loaded
            }
        }
        for child in children { child.collectPendingLoads(into: &pending) }
    }
}
