import MediaBox
import TelegramCore
import Testing

/// How files are cut for upload and which windows a download asks for: the rules of core.telegram.org "Uploading and
/// Downloading Files", checked on every size class and on resumed state.
@Suite struct TransferPlanTests {
    @Test func smallFilesGoInLargerPartsAndBigFilesInBigParts() throws {
        #expect(UploadPlan(size: 0) == nil)
        let tiny = try #require(UploadPlan(size: 1000))
        #expect(!tiny.isBig && tiny.partCount == 1 && tiny.range(ofPart: 0) == 0..<1000)

        let tenMegabytes = Int64(10 * 1024 * 1024)
        let atThreshold = try #require(UploadPlan(size: tenMegabytes))
        #expect(!atThreshold.isBig && atThreshold.partSize == 256 * 1024 && atThreshold.partCount == 40)

        let big = try #require(UploadPlan(size: tenMegabytes + 1))
        #expect(big.isBig && big.partSize == 512 * 1024 && big.partCount == 21)
        #expect(big.range(ofPart: 20) == tenMegabytes..<tenMegabytes + 1)

        // 4,000 parts of 512 KB is the most Telegram takes.
        #expect(UploadPlan(size: 4000 * 512 * 1024) != nil)
        #expect(UploadPlan(size: 4000 * 512 * 1024 + 1) == nil)
    }

    @Test(arguments: [
        Int64(1), Int64(300_000), Int64(10 * 1024 * 1024), Int64(12_345_678), Int64(100 * 1024 * 1024 + 17),
    ])
    func partsCoverTheFileOnceWithEqualSizesButTheLast(size: Int64) throws {
        let plan = try #require(UploadPlan(size: size))
        var covered: Int64 = 0
        for index in 0..<plan.partCount {
            let range = plan.range(ofPart: index)
            #expect(range.lowerBound == covered)
            if index < plan.partCount - 1 {
                #expect(range.count == plan.partSize)
            } else {
                #expect(range.count > 0 && range.count <= plan.partSize)
            }
            covered = range.upperBound
        }
        #expect(covered == size)
        // The server's rule: a part size is a multiple of 1 KB dividing 512 KB.
        #expect(plan.partSize % 1024 == 0 && (512 * 1024) % plan.partSize == 0)
        #expect(plan.remainingParts(acknowledged: Set(0..<plan.partCount)).isEmpty)
        #expect(plan.remainingParts(acknowledged: [0]) == Array(1..<plan.partCount))
    }

    @Test func downloadWindowsObeyTheAlignmentRulesAndSkipWhatIsStored() {
        let size: Int64 = 3 * 1024 * 1024 + 5
        let plan = FetchPlan(size: size)
        let all = plan.missingWindows(have: RangeMap())
        #expect(all.count == 7)
        for window in all {
            #expect(window.lowerBound % 4096 == 0 && window.count % 4096 == 0)
            #expect((1 << 20) % window.count == 0, "the limit divides 1 MB")
            #expect(window.lowerBound / (1 << 20) == (window.upperBound - 1) / (1 << 20), "inside one megabyte")
        }
        var have = RangeMap()
        have.insert(0..<1024 * 1024)  // the first two windows, whole
        have.insert(1024 * 1024..<1024 * 1024 + 1000)  // part of the third: still missing
        have.insert(3 * 1024 * 1024..<size)  // the short last window, whole
        #expect(plan.missingWindows(have: have).map(\.lowerBound) == [2, 3, 4, 5].map { Int64($0) * 512 * 1024 })
        #expect(FetchPlan(size: nil).missingWindows(have: RangeMap()).isEmpty)
        #expect(plan.window(containing: 600_000) == 512 * 1024..<1024 * 1024)
    }

    @Test func aStreamingReadFetchesOnlyTheWindowsHoldingItsRange() {
        let size: Int64 = 3 * 1024 * 1024 + 5
        let plan = FetchPlan(size: size)
        let window: Int64 = 512 * 1024
        // A range inside one window, one across two, one at the tail (the last window is short), one past the end.
        #expect(plan.missingWindows(covering: 100..<200, have: RangeMap()) == [0..<window])
        #expect(
            plan.missingWindows(covering: window - 10..<window + 10, have: RangeMap()) == [
                0..<window, window..<2 * window,
            ])
        #expect(plan.missingWindows(covering: size - 4..<size, have: RangeMap()) == [6 * window..<7 * window])
        #expect(plan.missingWindows(covering: size..<size + 100, have: RangeMap()).isEmpty)
        #expect(plan.missingWindows(covering: 50..<50, have: RangeMap()).isEmpty)
        // What is stored is skipped; a window stored only in part is fetched again whole.
        var have = RangeMap()
        have.insert(0..<window)
        have.insert(window..<window + 1000)
        #expect(plan.missingWindows(covering: 0..<window + 2000, have: have) == [window..<2 * window])
        have.insert(6 * window..<size)
        #expect(plan.missingWindows(covering: size - 4..<size, have: have).isEmpty)
    }
}
