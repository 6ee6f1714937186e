/// Builds HTML from Swift statements: elements, strings (escaped), `if`,
/// `switch` and `for`.
@resultBuilder
public enum HTMLBuilder {
    public static func buildExpression<Content: HTML>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyHTML { EmptyHTML() }
    // Blocks are folded into nested pairs: plain structs, which need no
    // run-time tuple metadata as a variadic tuple of contents would.
    public static func buildPartialBlock<Content: HTML>(first: Content) -> Content { first }
    public static func buildPartialBlock<Accumulated: HTML, Next: HTML>(
        accumulated: Accumulated, next: Next
    ) -> HTMLPair<Accumulated, Next> {
        HTMLPair(accumulated, next)
    }
    public static func buildOptional<Content: HTML>(_ content: Content?) -> Content? { content }
    public static func buildEither<First: HTML, Second: HTML>(first: First) -> HTMLEither<First, Second> { .first(first) }
    public static func buildEither<First: HTML, Second: HTML>(second: Second) -> HTMLEither<First, Second> { .second(second) }
    public static func buildArray<Content: HTML>(_ content: [Content]) -> [Content] { content }
    public static func buildLimitedAvailability<Content: HTML>(_ content: Content) -> Content { content }
}
