import Foundation

/// The reference page's data: one user's accounts, alerts and credit score,
/// read once at start from `data.json`.
public struct ReferenceData: Codable, Sendable {
    public struct Account: Codable, Sendable {
        public var name: String
        public var number: String
        public var balanceCents: Int

        public init(name: String, number: String, balanceCents: Int) {
            self.name = name
            self.number = number
            self.balanceCents = balanceCents
        }

        enum CodingKeys: String, CodingKey {
            case name, number
            case balanceCents = "balance_cents"
        }
    }

    public struct Alert: Codable, Sendable {
        public var severity: String
        public var title: String
        public var body: String

        public init(severity: String, title: String, body: String) {
            self.severity = severity
            self.title = title
            self.body = body
        }
    }

    public struct Credit: Codable, Sendable {
        public var score: Int
        public var band: String
        public var history: [Int]

        public init(score: Int, band: String, history: [Int]) {
            self.score = score
            self.band = band
            self.history = history
        }
    }

    public var user: String
    public var accounts: [Account]
    public var alerts: [Alert]
    public var credit: Credit

    /// The data shipped with this package.
    public static func bundled() throws -> ReferenceData {
        guard let url = Bundle.module.url(forResource: "data", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode(ReferenceData.self, from: Data(contentsOf: url))
    }
}

/// Where the sections read their data: a protocol, so tests hand a
/// section whatever data they need. Its reads answer at once (the data is
/// in memory), so each section's load runs to its end where it starts.
public protocol ReferenceStore: Sendable {
    func accounts() throws -> [ReferenceData.Account]
    func alerts() throws -> [ReferenceData.Alert]
    func credit() throws -> ReferenceData.Credit
}

/// The data in memory, as the reference page's spec asks.
public struct InMemoryReferenceStore: ReferenceStore {
    public let data: ReferenceData

    public init(_ data: ReferenceData) { self.data = data }

    public func accounts() throws -> [ReferenceData.Account] { data.accounts }
    public func alerts() throws -> [ReferenceData.Alert] { data.alerts }
    public func credit() throws -> ReferenceData.Credit { data.credit }
}
