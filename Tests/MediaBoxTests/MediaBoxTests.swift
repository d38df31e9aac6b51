import Foundation
import MediaBox
import TestVectors
import Testing

func makeMediaBox() throws -> (MediaBox, String) {
    let path = NSTemporaryDirectory() + "mediabox-\(UUID().uuidString)/postbox"
    return (try MediaBox(postboxPath: path), path)
}

@Suite struct RangeMapTests {
    /// Random inserts against a set of byte offsets.
    @Test func behavesLikeASetOfOffsets() {
        var generator = SeededGenerator(seed: 4)
        for _ in 0..<200 {
            var map = RangeMap()
            var model = Set<Int64>()
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let lower = Int64.random(in: 0..<100, using: &generator)
                let range = lower..<lower + Int64.random(in: 0...20, using: &generator)
                map.insert(range)
                model.formUnion(range)
            }
            #expect(map.count == Int64(model.count))
            #expect(Set(map.ranges.flatMap { Array($0) }) == model)
            for (a, b) in zip(map.ranges, map.ranges.dropFirst()) { #expect(a.upperBound < b.lowerBound) }
            #expect(RangeMap(serialized: map.serialize()) == map)
            let probe = Int64.random(in: 0..<100, using: &generator)
            let probeRange = probe..<probe + 5
            #expect(map.contains(probeRange) == probeRange.allSatisfy(model.contains))
        }
    }

    @Test func damagedMetaIsRejected() {
        var map = RangeMap()
        map.insert(0..<10)
        map.insert(20..<30)
        let bytes = map.serialize()
        #expect(RangeMap(serialized: Array(bytes.dropLast())) == nil)
        var overlapping = bytes
        overlapping[24] = 5  // second range starts inside the first
        #expect(RangeMap(serialized: overlapping) == nil)
        var hugeCount = bytes
        hugeCount[7] = 0x7f
        #expect(RangeMap(serialized: hugeCount) == nil)
    }
}

@Suite struct MediaBoxTests {
    @Test func outOfOrderPartialWritesCompleteTheResource() throws {
        let (box, _) = try makeMediaBox()
        let id = MediaResourceId("photo/123:big")
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        #expect(box.resourceStatus(id) == .remote)
        try box.writePartial(id, offset: 500, data: Array(data[500..<1000]), size: 1000)
        guard case .partial(let map, let progress) = box.resourceStatus(id, size: 1000) else {
            Issue.record("expected partial")
            return
        }
        #expect(map.ranges == [500..<1000])
        #expect(progress == 0.5)
        #expect(box.resourceData(id, range: 600..<700) == Array(data[600..<700]))
        #expect(box.resourceData(id, range: 400..<600) == nil)
        let status = try box.writePartial(id, offset: 0, data: Array(data[0..<500]), size: 1000)
        #expect(status == .local(path: box.completedPath(id)))
        #expect(box.resourceData(id, range: 0..<1000) == data)
        #expect(!FileManager.default.fileExists(atPath: box.partialPath(id)))
        #expect(!box.completedPath(id).contains("/photo/"))
    }

    @Test func completeStoreAndRemove() throws {
        let (box, _) = try makeMediaBox()
        let id = MediaResourceId("file-1")
        try box.storeResourceData(id, data: [1, 2, 3])
        #expect(box.resourceStatus(id) == .local(path: box.completedPath(id)))
        box.removeResource(id)
        #expect(box.resourceStatus(id) == .remote)
    }

    @Test func shortCacheIsPurgedByAgeThenSizeAndCacheIsKept() throws {
        let (box, _) = try makeMediaBox()
        let id = MediaResourceId("r")
        try box.storeCachedRepresentation(
            id, representation: "keep", keep: true, data: [UInt8](repeating: 1, count: 100))
        for (index, age) in [500, 400, 300, 200, 100].enumerated() {
            try box.storeCachedRepresentation(
                id, representation: "s\(index)", keep: false, data: [UInt8](repeating: 2, count: 100))
            let path = box.cachedRepresentationPath(id, representation: "s\(index)", keep: false)
            var times = [timespec(tv_sec: 10_000 - age, tv_nsec: 0), timespec(tv_sec: 10_000 - age, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        // Older than 450 s: s0. Then the oldest until at most 250 bytes remain: s1, s2.
        let removed = box.purgeShortCache(maxAge: 450, maxTotalBytes: 250, now: 10_000)
        #expect(removed == ["r:s0", "r:s1", "r:s2"])
        #expect(box.cachedRepresentationData(id, representation: "s3") != nil)
        #expect(box.cachedRepresentationData(id, representation: "s0") == nil)
        #expect(box.cachedRepresentationData(id, representation: "keep")?.count == 100)
    }
}

@Suite struct MediaResourceReaderTests {
    @Test func readsStoredRangesUpToTheirEndAndNothingElse() throws {
        let (box, _) = try makeMediaBox()
        let id = MediaResourceId("video-1")
        #expect(box.reader(id).ranges.count == 0)
        let bytes = (0..<300).map { UInt8($0 % 251) }
        try box.writePartial(id, offset: 0, data: Array(bytes[0..<100]), size: 300)
        try box.writePartial(id, offset: 200, data: Array(bytes[200..<300]), size: 300)
        let reader = box.reader(id)
        #expect(reader.ranges.ranges == [0..<100, 200..<300])
        var buffer = [UInt8](repeating: 0, count: 64)
        func read(_ offset: Int64) -> [UInt8] {
            let count = buffer.withUnsafeMutableBytes { reader.read(at: offset, into: $0) }
            return Array(buffer.prefix(count))
        }
        #expect(read(10) == Array(bytes[10..<74]))
        #expect(read(80) == Array(bytes[80..<100]), "stops where the stored range ends")
        #expect(read(100).isEmpty && read(199).isEmpty, "nothing from the gap")
        #expect(read(260) == Array(bytes[260..<300]))
        #expect(read(300).isEmpty && read(-1).isEmpty)
        // A snapshot: what is stored later needs a new reader; once complete, the whole file is one range.
        try box.writePartial(id, offset: 100, data: Array(bytes[100..<200]), size: 300)
        #expect(read(150).isEmpty)
        let complete = box.reader(id)
        #expect(complete.ranges.ranges == [0..<300])
        var all = [UInt8](repeating: 0, count: 400)
        #expect(all.withUnsafeMutableBytes { complete.read(at: 0, into: $0) } == 300)
        #expect(Array(all.prefix(300)) == bytes)
    }
}
