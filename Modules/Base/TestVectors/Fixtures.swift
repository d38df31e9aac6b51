public import Foundation

/// Test data shipped in the repository (`Tests/Fixtures/vectors/`), found from this file's path.
public enum Fixtures {
    /// The repository root: the nearest folder above this file that holds `Package.swift`.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The JSON object of `Tests/Fixtures/vectors/<name>`.
    public static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/vectors/\(name)"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }
}
