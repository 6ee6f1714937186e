/// An account as the balances section lists it.
public struct Account: Sendable, Equatable {
    public var name: String
    /// The last four digits only.
    public var lastDigits: String
    public var balance: Money

    public init(name: String, lastDigits: String, balance: Money) {
        self.name = name
        self.lastDigits = lastDigits
        self.balance = balance
    }

    /// What stands for the hidden digits, before the last four.
    public static let maskPrefix = "•••• "
}

/// Something the user should know about their money.
public struct FeedAlert: Sendable, Equatable {
    public enum Severity: Int, Sendable, Comparable, CaseIterable {
        case info, warning, critical

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

        public var label: String {
            switch self {
            case .info: "Info"
            case .warning: "Warning"
            case .critical: "Critical"
            }
        }

        /// The classes of an alert of this severity: `alert alert-critical`
        /// (static: written into the page as they are).
        public var cssClass: StaticString {
            switch self {
            case .info: "alert alert-info"
            case .warning: "alert alert-warning"
            case .critical: "alert alert-critical"
            }
        }
    }

    /// The database's id: the dismiss form names it.
    public var id: Int
    public var severity: Severity
    public var title: String
    public var text: String
    public var isDismissed: Bool

    public init(id: Int, severity: Severity, title: String, text: String, isDismissed: Bool = false) {
        self.id = id
        self.severity = severity
        self.title = title
        self.text = text
        self.isDismissed = isDismissed
    }
}

/// A credit score with its last twelve months, oldest first.
public struct CreditScore: Sendable, Equatable {
    public var score: Int
    public var history: [Int]

    public init(score: Int, history: [Int]) {
        self.score = score
        self.history = history
    }

    /// The usual FICO bands.
    public var band: String {
        switch score {
        case ..<580: "Poor"
        case 580..<670: "Fair"
        case 670..<740: "Good"
        case 740..<800: "Very good"
        default: "Exceptional"
        }
    }
}

/// A notice the bank posts on a board every customer reads.
public struct Notice: Sendable, Equatable {
    public var title: String
    public var text: String
    public var date: Day

    public init(title: String, text: String, date: Day) {
        self.title = title
        self.text = text
        self.date = date
    }
}

/// One card or account transaction.
public struct Transaction: Sendable, Equatable {
    public var date: Day
    public var merchant: String
    public var amount: Money

    public init(date: Day, merchant: String, amount: Money) {
        self.date = date
        self.merchant = merchant
        self.amount = amount
    }
}
