extension StackPageController {
    /// Adds a child for each of the plan's sections, in its order, each made
    /// by the catalog's factory (only `setup.onlySection` when it is set).
    public func addSections<Context>(from catalog: PageCatalog<Context>, _ setup: SectionSetup<Context>) {
        // Room for them all at once: appended one by one, the children grew three times a page.
        children.reserveCapacity(children.count + (setup.onlySection == nil ? setup.plan.sectionIDs.count : 1))
        for id in setup.plan.sectionIDs where setup.onlySection == nil || setup.onlySection == id {
            if let section = catalog.makeSection(id, setup) { addChild(section) }
        }
    }
}
