extension Array {
    /// `count` copies of `value`. `Array(repeating:count:)` makes its storage
    /// in generic code that looks the element type up at run time (about 650
    /// instructions, twice a page); growing an empty array does not.
    init(filled count: Int, with value: Element) {
        self.init()
        reserveCapacity(count)
        for _ in 0..<count { append(value) }
    }
}
