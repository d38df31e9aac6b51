import Foundation

/// An error a command-line tool reports in one line.
public struct ToolError: Error, CustomStringConvertible {
    public let description: String

    /// An error whose whole message is `description`.
    public init(_ description: String) { self.description = description }
}

/// The bytes of the file at `path`; throws `ToolError("cannot read <path>")` when it cannot be read.
public func readFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { throw ToolError("cannot read \(path)") }
    return [UInt8](data)
}

/// Writes through a temporary file in the same folder and renames it, so a failure never leaves half a file.
public func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
        ".\(url.lastPathComponent).\(UUID().uuidString).part")
    do {
        try Data(bytes).write(to: temporary)
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(at: temporary, to: url)
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw ToolError("cannot write \(path): \(error.localizedDescription)")
    }
}
