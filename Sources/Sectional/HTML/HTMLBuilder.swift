/// Builds HTML from Swift statements: elements, strings (escaped), `if`,
/// `switch` and `for`.
///
/// Every builder function takes its content `consuming`: a block's content
/// is then moved into its element instead of copied at each level of
/// nesting (a copy of a subtree retains every string in it).
@resultBuilder
public enum HTMLBuilder {
    /// Any content, as is; a `String` is escaped text.
    @inlinable public static func buildExpression<Content: HTML>(_ content: consuming Content) -> Content { content }
    /// An empty block: nothing.
    @inlinable public static func buildBlock() -> EmptyHTML { EmptyHTML() }
    // Blocks are folded into nested pairs: plain structs, which need no
    // run-time tuple metadata as a variadic tuple of contents would.
    /// A block's first statement.
    @inlinable public static func buildPartialBlock<Content: HTML>(first: consuming Content) -> Content { first }
    /// The statements so far, then the next one.
    @inlinable public static func buildPartialBlock<Accumulated: HTML, Next: HTML>(
        accumulated: consuming Accumulated, next: consuming Next
    ) -> HTMLPair<Accumulated, Next> {
        HTMLPair(accumulated, next)
    }
    /// An `if` without `else`: nothing when the condition is false.
    @inlinable public static func buildOptional<Content: HTML>(_ content: consuming Content?) -> Content? { content }
    /// The `if` branch, or an earlier `switch` case.
    @inlinable public static func buildEither<First: HTML, Second: HTML>(first: consuming First) -> HTMLEither<First, Second> { .first(first) }
    /// The `else` branch, or a later `switch` case.
    @inlinable public static func buildEither<First: HTML, Second: HTML>(second: consuming Second) -> HTMLEither<First, Second> { .second(second) }
    /// A `for` loop: each pass's content, in order.
    @inlinable public static func buildArray<Content: HTML>(_ content: consuming [Content]) -> [Content] { content }
    /// An `if #available` branch.
    @inlinable public static func buildLimitedAvailability<Content: HTML>(_ content: consuming Content) -> Content { content }
}
