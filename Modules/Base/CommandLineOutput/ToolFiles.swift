import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of the file at `path`; an unreadable file is a bad-input `ToolError` that says why.
public func readFile(_ path: String) throws(ToolError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        let why = FileManager.default.fileExists(atPath: path) ? "cannot read \(path)" : "\(path) does not exist"
        throw .badInput(why, remedy: "check the path and its permissions")
    }
    return [UInt8](data)
}

/// Writes `bytes` to `path` all or nothing: into a new temporary file in the same folder (`O_CREAT | O_EXCL`),
/// flushed to disk (`fsync`), then renamed over `path` (`rename(2)` replaces it atomically), so a reader sees the
/// old file or the new one, never half of one, and a failure leaves nothing behind.
public func writeAtomically(_ bytes: [UInt8], to path: String) throws(ToolError) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).part").path
    func failure(_ step: String) -> ToolError {
        ToolError(
            "cannot write \(path): \(step): \(String(cString: strerror(errno)))",
            remedy: "check that the folder exists, is writable and has space")
    }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("create") }
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else {
            let error = failure("write")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        offset += written
    }
    guard fsync(descriptor) == 0 else {
        let error = failure("fsync")
        close(descriptor)
        unlink(temporary)
        throw error
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
        let error = failure("rename")
        unlink(temporary)
        throw error
    }
}

/// Files written into a hidden staging folder beside `directory` and moved into it only when all succeeded
/// (`commit`), so a failure leaves neither files nor an empty output folder behind (`discard`).
public struct StagedFolder {
    /// The folder the files end up in.
    public var path: String { directory.path }
    let directory: URL
    private let staging: URL
    /// Names written so far, in order.
    public private(set) var names: [String] = []

    /// A staging folder beside `directory` (whose parent is created if needed).
    public init(directory: String) throws(ToolError) {
        self.directory = URL(fileURLWithPath: directory)
        let parent = self.directory.deletingLastPathComponent()
        staging = parent.appendingPathComponent(".staging-\(self.directory.lastPathComponent)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw ToolError(
                "cannot create a folder beside \(directory): \(error.localizedDescription)",
                remedy: "check that its parent folder is writable")
        }
    }

    /// Writes one file into the staging folder (no rename or fsync of its own: `commit` is the step that counts).
    public mutating func write(_ bytes: [UInt8], name: String) throws(ToolError) {
        do {
            try Data(bytes).write(to: staging.appendingPathComponent(name))
        } catch {
            throw ToolError(
                "cannot write \(name) beside \(directory.path): \(error.localizedDescription)",
                remedy: "check that the folder is writable and has space")
        }
        names.append(name)
    }

    /// Moves every file into `directory` (created if needed), replacing files of the same name.
    public func commit() throws(ToolError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ToolError(
                "cannot create \(directory.path): \(error.localizedDescription)", remedy: "check its parent folder")
        }
        for name in names {
            let target = directory.appendingPathComponent(name).path
            guard rename(staging.appendingPathComponent(name).path, target) == 0 else {
                throw ToolError("cannot move \(name) into \(directory.path): \(String(cString: strerror(errno)))")
            }
        }
        try? FileManager.default.removeItem(at: staging)
    }

    /// Removes the staging folder and what it holds.
    public func discard() { try? FileManager.default.removeItem(at: staging) }
}
