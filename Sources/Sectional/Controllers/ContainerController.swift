/// A container that one child fills, such as an app shell (header and
/// navigation) around a page: UIKit's `ContainerViewController`.
///
/// Replace the child with `setChild(_:)`, which removes the old one with its
/// full callback sequence before adding the new one.
open class ContainerController: SectionController {
    /// The one child, if set.
    public var child: SectionController? { children.first }

    /// A container, filled by `child` when one is given.
    public init(id: SectionID, title: String, child: SectionController? = nil) {
        super.init(id: id, title: title)
        if let child { addChild(child) }
    }

    /// Makes `newChild` the only child; the old one leaves first.
    public func setChild(_ newChild: SectionController?) {
        guard newChild !== child else { return }
        for old in children { old.removeFromParent() }
        if let newChild { addChild(newChild) }
    }
}
