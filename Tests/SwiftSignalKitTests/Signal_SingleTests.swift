import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_SingleTests {
    @Test func freeFunctionConstructors() {
        #expect(record(single(5, TestError.self)).events == [.Next(5), .Completion])
        #expect(record(fail(Int.self, TestError.failed)).events == [.Error(.failed)])
        #expect(record(complete(Int.self, TestError.self)).events == [.Completion])
        #expect(record(never(Int.self, TestError.self)).events == [])
    }

    @Test func neverCanBeDisposed() {
        let disposable = never(Int.self, NoError.self).start()
        disposable.dispose()
    }
}
