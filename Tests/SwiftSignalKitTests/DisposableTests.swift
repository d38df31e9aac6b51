import Dispatch
import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct DisposableTests {
    @Test func actionDisposableRunsOnce() {
        let count = Counter()
        let disposable = ActionDisposable { count.increment() }
        disposable.dispose()
        disposable.dispose()
        #expect(count.count == 1)
    }

    @Test func emptyDisposableDoesNothing() {
        // One shared instance: a generator that returns it allocates nothing.
        #expect(EmptyDisposable === EmptyDisposable)
        // Disposing it, again and again and from many threads, has no effect on what shares a set with it.
        let log = Log()
        let set = DisposableSet()
        set.add(EmptyDisposable)
        set.add(ActionDisposable { log.add("action") })
        DispatchQueue.concurrentPerform(iterations: 64) { _ in EmptyDisposable.dispose() }
        #expect(log.all == [])
        set.dispose()
        #expect(log.all == ["action"])
        // And signals returning it still deliver after all that.
        #expect(record(sequence([1])).events == [.Next(1), .Completion])
    }

    @Test func metaDisposableDisposesThePreviousOnSet() {
        let log = Log()
        let meta = MetaDisposable()
        meta.set(ActionDisposable { log.add("a") })
        meta.set(ActionDisposable { log.add("b") })
        #expect(log.all == ["a"])
        meta.set(nil)
        #expect(log.all == ["a", "b"])
        meta.set(ActionDisposable { log.add("c") })
        meta.dispose()
        #expect(log.all == ["a", "b", "c"])
    }

    @Test func metaDisposableSetAfterDisposeDisposesAtOnce() {
        let count = Counter()
        let meta = MetaDisposable()
        meta.dispose()
        meta.set(ActionDisposable { count.increment() })
        #expect(count.count == 1)
    }

    @Test func metaDisposableSettingTheSameDisposableKeepsIt() {
        let count = Counter()
        let meta = MetaDisposable()
        let inner = ActionDisposable { count.increment() }
        meta.set(inner)
        meta.set(inner)
        #expect(count.count == 0)
        meta.dispose()
        #expect(count.count == 1)
    }

    @Test func disposableSetDisposesAllAndLaterAdditions() {
        let log = Log()
        let set = DisposableSet()
        set.add(ActionDisposable { log.add("a") })
        let removed = ActionDisposable { log.add("removed") }
        set.add(removed)
        set.remove(removed)
        set.add(ActionDisposable { log.add("last") })
        let last = set.removeLast()
        set.dispose()
        #expect(log.all == ["a"])
        set.add(ActionDisposable { log.add("late") })
        #expect(log.all == ["a", "late"])
        last?.dispose()
        #expect(log.all == ["a", "late", "last"])
    }

    @Test func disposableDictReplacesPerKey() {
        let log = Log()
        let dict = DisposableDict<String>()
        dict.set(ActionDisposable { log.add("x1") }, forKey: "x")
        dict.set(ActionDisposable { log.add("y1") }, forKey: "y")
        dict.set(ActionDisposable { log.add("x2") }, forKey: "x")
        #expect(log.all == ["x1"])
        dict.set(nil, forKey: "y")
        #expect(log.all == ["x1", "y1"])
        dict.dispose()
        #expect(log.all == ["x1", "y1", "x2"])
        dict.set(ActionDisposable { log.add("late") }, forKey: "z")
        #expect(log.all == ["x1", "y1", "x2", "late"])
    }

    @Test func strictForwardsDispose() {
        let count = Counter()
        let strict = ActionDisposable { count.increment() }.strict()
        strict.dispose()
        #expect(count.count == 1)
    }
}
