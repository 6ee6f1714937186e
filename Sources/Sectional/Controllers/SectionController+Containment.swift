extension SectionController {
    /// Adds `child` as the last child: `willMove(toParent: self)`, append,
    /// `didMove(toParent: self)`. A child that already has a parent leaves it
    /// first, with its callbacks, so it never has two parents nor appears twice.
    public func addChild(_ child: SectionController) {
        precondition(child !== self && !child.isAncestor(of: self), "A controller cannot contain itself.")
        child.removeFromParent()
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
        child.didMove(toParent: self)
    }

    /// Leaves the parent: `willMove(toParent: nil)`, detach,
    /// `didMove(toParent: nil)`. Without a parent it does nothing.
    public func removeFromParent() {
        guard let parent else { return }
        willMove(toParent: nil)
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Whether `other` is below this controller in the tree.
    public func isAncestor(of other: SectionController) -> Bool {
        var current = other.parent
        while let node = current {
            if node === self { return true }
            current = node.parent
        }
        return false
    }
}
