extension StackPageController {
    /// Adds a child for each of the plan's sections, in its order, each made
    /// by the catalog's factory.
    public func addSections<Context>(from catalog: PageCatalog<Context>, _ setup: SectionSetup<Context>) {
        for id in setup.plan.sectionIDs {
            if let section = catalog.makeSection(id, setup) { addChild(section) }
        }
    }
}
