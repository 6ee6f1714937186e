/// The versions of the live data something was read at, and when it stops
/// holding whatever the data does: read again while every version stands
/// and before `expires`, it would read the same. A sign-in's session and a
/// saved layout carry one, so that an answer made from them can be
/// confirmed later (`StampedMemo`) without reading them again.
public struct ReadStamp: Sendable {
    /// Each key read, with its version as it was read: in the same statement
    /// as the data, or before it, never after (a change in between must not
    /// be stamped as seen).
    public var versions: [(key: LiveKey, version: Int)]
    /// When it stops holding anyway, e.g. when a session idles out; `nil`: never.
    public var expires: ContinuousClock.Instant? {
        get { expiry.map { ContinuousClock.Instant.origin.advanced(by: $0) } }
        set { expiry = newValue?.sinceOrigin }
    }
    /// `expires` as kept: its time since `ContinuousClock.Instant.origin`.
    private(set) var expiry: Duration?

    /// What was read at `versions`, holding until `expires`.
    public init(_ versions: [(key: LiveKey, version: Int)] = [], expires: ContinuousClock.Instant? = nil) {
        self.versions = versions
        expiry = expires?.sinceOrigin
    }
}

extension ContinuousClock.Instant {
    /// What kept times are counted from: the first time it is read.
    static let origin = ContinuousClock.now

    /// The time since `origin`, kept where an instant would be. A `Duration`'s
    /// layout is fixed and an instant's is not (the standard library may
    /// change it): every optional of a type holding an instant went through
    /// the runtime's generic enum functions, about 3,000 instructions a page.
    var sinceOrigin: Duration { Self.origin.duration(to: self) }
}
