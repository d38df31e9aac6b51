import Foundation

/// A set of files written into a staging folder beside `directory` and moved into it only when all succeeded, so a
/// failure leaves neither files nor an empty output folder behind.
struct StagedFiles {
    let directory: URL
    let staging: URL
    private(set) var names: [String] = []

    init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        let parent = self.directory.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        staging = parent.appendingPathComponent(".sticker-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    }

    mutating func write(_ bytes: [UInt8], name: String) throws {
        try Data(bytes).write(to: staging.appendingPathComponent(name))
        names.append(name)
    }

    func commit() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in names {
            let target = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
            try FileManager.default.moveItem(at: staging.appendingPathComponent(name), to: target)
        }
        try FileManager.default.removeItem(at: staging)
    }

    func discard() { try? FileManager.default.removeItem(at: staging) }
}

/// Standard error, for progress and warnings.
func printError(_ text: String, terminator: String = "\n") {
    FileHandle.standardError.write(Data((text + terminator).utf8))
}
