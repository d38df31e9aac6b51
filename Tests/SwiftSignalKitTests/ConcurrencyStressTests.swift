import Dispatch
import SignalTesting
import SwiftSignalKit
import Testing

/// Many threads putting values, subscribing and disposing at once. Run under ThreadSanitizer with
/// `make tsan FILTER=SwiftSignalKitTests`.
@Suite struct ConcurrencyStressTests {
    static let threads = 8

    @Test func terminalEventArrivesOnceWhenThreadsRace() {
        for _ in 0..<200 {
            let terminals = Counter()
            let subscriberBox = LockedValue<Subscriber<Int, TestError>?>.make(nil)
            _ = Signal<Int, TestError> { subscriber in
                subscriberBox.withLock { $0 = subscriber }
                return EmptyDisposable
            }.start(error: { _ in terminals.increment() }, completed: { terminals.increment() })
            let subscriber = subscriberBox.withLock { $0 }!
            DispatchQueue.concurrentPerform(iterations: Self.threads) { index in
                subscriber.putNext(index)
                if index % 2 == 0 { subscriber.putCompletion() } else { subscriber.putError(.failed) }
                subscriber.putNext(index)
            }
            #expect(terminals.count == 1)
        }
    }

    @Test func valuePipeWithConcurrentPutsSubscribesAndDisposes() {
        let pipe = ValuePipe<Int>()
        let delivered = Counter()
        let stable = LockedValue.make(true)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for round in 0..<300 {
                if thread % 2 == 0 {
                    pipe.putNext(round)
                } else {
                    let count = Counter()
                    let disposable = (pipe.signal() |> map { $0 + 1 } |> filter { $0 > 0 }).start(next: { _ in
                        count.increment()
                        delivered.increment()
                    })
                    pipe.putNext(round)
                    disposable.dispose()
                    let afterDispose = count.count
                    pipe.putNext(round)
                    // An event already in flight may land, but no new put reaches a disposed subscriber.
                    if count.count > afterDispose + Self.threads { stable.withLock { $0 = false } }
                }
            }
        }
        #expect(stable.withLock { $0 })
        #expect(delivered.count >= 300 * Self.threads / 2)
    }

    @Test func metaDisposableDisposesEverySetDisposableExactlyOnce() {
        let meta = MetaDisposable()
        let disposed = Counter()
        let created = Counter()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for _ in 0..<500 {
                created.increment()
                meta.set(ActionDisposable { disposed.increment() })
            }
            if thread == Self.threads - 1 { meta.dispose() }
        }
        meta.dispose()
        #expect(disposed.count == created.count)
    }

    @Test func disposableSetDisposesEverythingOnce() {
        let set = DisposableSet()
        let disposed = Counter()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<500 {
                set.add(ActionDisposable { disposed.increment() })
                if thread == 0 && index == 250 { set.dispose() }
            }
        }
        #expect(disposed.count == Self.threads * 500)
    }

    @Test func promiseFanOutWhileSubscribersComeAndGo() {
        let promise = ValuePromise<Int>(0)
        let active = LockedValue<[Disposable]>.make([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for round in 0..<300 {
                switch thread % 3 {
                case 0: promise.set(round)
                case 1:
                    let disposable = promise.get().start(next: { _ in })
                    active.withLock { $0.append(disposable) }
                default:
                    active.withLock { $0.popLast() }?.dispose()
                }
            }
        }
        for disposable in active.withLock({ $0 }) { disposable.dispose() }
        let final = EventRecorder(promise.get())
        #expect(final.values.count == 1)
    }

    @Test func deliverOnKeepsEachProducersOrder() async throws {
        let queue = Queue(name: "stress")
        let pipe = ValuePipe<(Int, Int)>()
        let seen = LockedValue<[Int: Int]>.make([:])
        let ordered = LockedValue.make(true)
        let done = Counter()
        let disposable = (pipe.signal() |> deliverOn(queue)).start(next: { producer, value in
            seen.withLock { last in
                if let previous = last[producer], previous + 1 != value { ordered.withLock { $0 = false } }
                last[producer] = value
            }
            done.increment()
        })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { producer in
            for value in 0..<2000 { pipe.putNext((producer, value)) }
        }
        queue.sync {}
        disposable.dispose()
        #expect(ordered.withLock { $0 })
        #expect(done.count == Self.threads * 2000)
    }

    @Test func combineLatestFromManyThreadsTerminatesOnce() {
        for _ in 0..<20 {
            let a = TestSource<Int, TestError>()
            let b = TestSource<Int, TestError>()
            let terminals = Counter()
            let values = Counter()
            let disposable = (combineLatest(a.signal, b.signal) |> map { $0.0 + $0.1 }).start(
                next: { _ in values.increment() }, completed: { terminals.increment() })
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                let source = thread % 2 == 0 ? a : b
                for value in 0..<200 { source.putNext(value) }
                source.putCompletion()
            }
            #expect(terminals.count == 1)
            #expect(values.count <= 800)
            disposable.dispose()
        }
    }

    @Test func subscribeAndDisposeFromManyThreads() {
        let source = TestSource<Int, TestError>()
        let signal = source.signal |> map { $0 * 2 } |> distinctUntilChanged |> take(1_000_000)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for round in 0..<300 {
                let disposable = signal.start(next: { _ in })
                if round % 3 == 0 { source.putNext(round * thread) }
                disposable.dispose()
            }
        }
        #expect(source.activeCount == 0)
        #expect(source.subscriptionCount == Self.threads * 300)
        #expect(source.disposalCount == Self.threads * 300)
    }
}
