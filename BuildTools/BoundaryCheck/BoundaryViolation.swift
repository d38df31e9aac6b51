/// A broken boundary rule, printed as `file:line: error: message (rule: …)`.
public enum BoundaryViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// The manifest refused to evaluate; its lines already name `Package.swift:<line>` and the rule.
    case manifest([String])
    /// A file imports a module its target does not declare as a direct dependency.
    case undeclaredImport(file: String, line: Int, target: String, module: String)
    /// A file imports a C module, and its target is not that module's one wrapper.
    case cModuleOutsideWrapper(file: String, line: Int, target: String, module: String, wrapper: String?)
    /// Two Swift targets declare the same C module: it must have exactly one wrapper.
    case twoWrappers(module: String, targets: [String])
    /// A target declares a direct dependency that none of its files imports; `row` is the line of its manifest row
    /// and `list` the row's field that names it (`deps`, `testDeps`, `links`).
    case unusedDependency(row: Int?, target: String, module: String, list: String)
    /// A file of a target that ships in an executable uses a construct whose compiled form depends on the checkout's
    /// path or the build time (`PathDependentCode`).
    case pathDependentCode(file: String, line: Int, construct: String)
    /// A file of a target that `app` links imports full `Foundation` (or FoundationInternationalization, …), where the
    /// app allows only `FoundationEssentials` (`BoundaryCheck.foundationEssentialsOnly`, which says `why`).
    case fullFoundation(file: String, line: Int, target: String, app: String, module: String, why: String)

    public var description: String {
        switch self {
        case .manifest(let lines):
            return lines.joined(separator: "\n")
        case let .undeclaredImport(file, line, target, module):
            return "\(file):\(line): error: '\(target)' imports '\(module)', which it does not declare as a direct "
                + "dependency (rule: direct imports only — add it to \(target)'s row in Package.swift, if the "
                + "layering allows, or remove the import)"
        case let .cModuleOutsideWrapper(file, line, target, module, wrapper):
            let owner = wrapper.map { "its wrapper '\($0)'" } ?? "its wrapper module"
            return "\(file):\(line): error: '\(target)' imports C module '\(module)' (rule: a C module is imported "
                + "only by \(owner); use the wrapper's Swift API instead)"
        case let .twoWrappers(module, targets):
            return
                "Package.swift: error: C module '\(module)' is a dependency of \(targets.joined(separator: " and ")) "
                + "(rule: each C module has exactly one Swift wrapper)"
        case let .unusedDependency(row, target, module, list):
            return
                "Package.swift:\(row.map(String.init) ?? "1"): error: '\(target)' declares '\(module)' in \(list), but "
                + "none of its files imports it (rule: declare only the direct dependencies a target imports — "
                + "remove '\(module)' from \(list))"
        case let .pathDependentCode(file, line, construct):
            return
                "\(file):\(line): error: '\(construct)' makes the compiled code depend on the checkout's path or the "
                + "build time (rule: release builds are reproducible across folders — see README \"Reproducible builds\")"
        case let .fullFoundation(file, line, target, app, module, why):
            return
                "\(file):\(line): error: '\(target)', which '\(app)' links, imports \(module) (rule: \(app) uses "
                + "FoundationEssentials only — \(why))"
        }
    }
}
