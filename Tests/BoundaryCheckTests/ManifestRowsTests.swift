import BoundaryCheck
import Testing

@Suite struct ManifestRowsTests {
    @Test func findsRowsOnOneLineOrSpreadOverSeveral() {
        let manifest = """
            let modules: [Module] = [
                .system("CZlib", pkgConfig: "zlib", apt: "zlib1g-dev", wrapper: "GZip"),
                // .swift("Commented", .Base),
                .swift("Buffers", .Base),
                .swift(
                    "Postbox", .Postbox, deps: ["Buffers"],
                    testDeps: ["TestVectors"]),
                .testSupport("TestVectors", .Base),
            ]
            func targets(for module: Module) -> [Target] {
                switch module.kind {
                case .system(let pkgConfig, let apt, _):
                    return [.systemLibrary(name: module.name, path: "Modules/\\(module.name)")]
                }
            }
            let apps: [App] = [
                .app("tg-server", links: ["Buffers"]),
            ]
            """
        #expect(ManifestRows.lines(in: manifest) == [
            "CZlib": 2, "Buffers": 4, "Postbox": 5, "TestVectors": 8, "tg-server": 17,
        ])
    }
}
