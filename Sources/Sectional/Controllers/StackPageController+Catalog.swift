extension StackPageController {
    /// Adds a child for each of the plan's sections, in its order, each made
    /// by the catalog's factory (only `setup.onlySection` when it is set).
    public func addSections<Context>(from catalog: PageCatalog<Context>, _ setup: SectionSetup<Context>) {
        for id in setup.plan.sectionIDs where setup.onlySection == nil || setup.onlySection == id {
            if let section = catalog.makeSection(id, setup) { addChild(section) }
        }
    }
}
