/// Builds HTML from Swift statements: elements, strings (escaped), `if`,
/// `switch` and `for`.
@resultBuilder
public enum HTMLBuilder {
    public static func buildExpression<Content: HTML>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyHTML { EmptyHTML() }
    public static func buildBlock<Content: HTML>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: HTML>(_ content: repeat each Content) -> HTMLTuple<repeat each Content> {
        HTMLTuple(repeat each content)
    }
    public static func buildOptional<Content: HTML>(_ content: Content?) -> Content? { content }
    public static func buildEither<First: HTML, Second: HTML>(first: First) -> HTMLEither<First, Second> { .first(first) }
    public static func buildEither<First: HTML, Second: HTML>(second: Second) -> HTMLEither<First, Second> { .second(second) }
    public static func buildArray<Content: HTML>(_ content: [Content]) -> [Content] { content }
    public static func buildLimitedAvailability<Content: HTML>(_ content: Content) -> Content { content }
}
