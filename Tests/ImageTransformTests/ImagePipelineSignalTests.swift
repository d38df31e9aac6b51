import Dispatch
import Foundation
import ImageCore
import ImageTransform
import SwiftSignalKit
import Testing

/// The pipeline as a Signal: work off the subscriber's queue, values where `deliverOn` says, disposal stops work.
@Suite struct ImagePipelineSignalTests {
    static let png = PNGCodec.encode(Pictures.gradient(64, 64))

    @Test func deliversTheTransformedImageOnTheChosenQueue() async throws {
        let pipeline = ImagePipeline(cache: TransformCache(memoryLimit: 1 << 20))
        let delivery = Queue(name: "delivery")
        let onDelivery = Locked<[Bool]>([])
        let signal = pipeline.signal(for: "avatar", arguments: .roundAvatar(side: 40), data: { Self.png })
            |> deliverOn(delivery)
            |> beforeNext { _ in onDelivery.withLock { $0.append(delivery.isCurrent()) } }
        var bitmaps: [Bitmap] = []
        for try await bitmap in signal.values { bitmaps.append(bitmap) }
        #expect(bitmaps.count == 1)
        #expect(bitmaps.first?.width == 40 && bitmaps.first?.height == 40)
        #expect(bitmaps.first?[0, 0].a == 0)  // the corner is outside the circle
        #expect(onDelivery.withLock { $0 } == [true])
    }

    @Test func disposingBeforeTheWorkRunsStopsIt() throws {
        let gate = DispatchSemaphore(value: 0)
        let work = DispatchQueue(label: "work")
        work.async { gate.wait() }  // holds the work queue until the request has been disposed
        let pipeline = ImagePipeline(cache: TransformCache(memoryLimit: 1 << 20), workQueue: work)
        let loads = Locked(0)
        let events = Locked(0)
        let disposable = pipeline.signal(for: "x", arguments: .roundAvatar(side: 8), data: {
            loads.withLock { $0 += 1 }
            return Self.png
        }).start(next: { _ in events.withLock { $0 += 1 } }, error: { _ in events.withLock { $0 += 1 } })
        disposable.dispose()
        gate.signal()
        work.sync {}
        #expect(loads.withLock { $0 } == 0, "the resource was loaded after disposal")
        #expect(events.withLock { $0 } == 0)
    }

    @Test func undecodableBytesFailTheSignal() async {
        let pipeline = ImagePipeline(cache: TransformCache(memoryLimit: 1 << 20))
        let signal = pipeline.signal(for: "bad", arguments: .roundAvatar(side: 8), data: { [1, 2, 3] })
        await #expect(throws: ImageTransformError.undecodable("neither PNG nor WebP")) {
            for try await _ in signal.values {}
        }
    }
}
