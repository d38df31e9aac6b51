import Foundation

/// Reading input files with a size bound, and writing a prepared file where an account can copy it from.
enum LocalFiles {
    /// Why a file could not be read.
    enum Failure: Error {
        /// It holds more bytes than the caller accepts.
        case tooLarge(size: Int)
        /// It could not be opened or read (what went wrong).
        case unreadable(String)
    }

    /// The bytes of the file at `path`; refused before reading when it holds more than `maxBytes` (so a huge file is
    /// never loaded only to be refused).
    static func read(_ path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch { throw .unreadable(error.localizedDescription) }
        guard size <= maxBytes else { throw .tooLarge(size: size) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable("the file cannot be opened")
        }
        return [UInt8](data)
    }

    /// Writes `bytes` to a new file in the temporary folder, runs `body` with its path and removes it afterwards.
    static func withTemporaryFile<R>(
        _ bytes: [UInt8], suffix: String, _ body: (String) throws -> R
    ) throws -> R {
        let path = NSTemporaryDirectory() + "/media-resources-\(UInt64.random(in: 1...UInt64.max))" + suffix
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }
}
