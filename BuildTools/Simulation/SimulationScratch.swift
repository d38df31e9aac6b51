import Foundation

extension Simulation {
    /// Where a seed's databases live: a memory-backed file system (`/dev/shm`) when the machine has one with room
    /// to spare, else the temporary directory. The simulation's disk is not under test — crashes here are process
    /// deaths, which keep what SQLite wrote whatever the medium — and on this machine the disk's syncs were half of a
    /// seed's time (each account's Postbox is created afresh). `SIMULATION_DIRECTORY` overrides the choice.
    static let scratchDirectory: URL = {
        if let chosen = ProcessInfo.processInfo.environment["SIMULATION_DIRECTORY"], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen, isDirectory: true)
        }
        let memory = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        if FileManager.default.isWritableFile(atPath: memory.path), freeBytes(at: memory.path) >= minimumFreeBytes {
            return memory
        }
        return FileManager.default.temporaryDirectory
    }()

    /// Room a memory file system must have left to be used: a seed's databases take a few MiB, and a run of two
    /// seeds at a time must not fill a small `/dev/shm` (containers often mount 64 MiB).
    static let minimumFreeBytes: Int64 = 512 << 20

    private static func freeBytes(at path: String) -> Int64 {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value ?? 0
    }
}
