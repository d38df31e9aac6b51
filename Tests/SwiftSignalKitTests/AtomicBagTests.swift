import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct AtomicBagTests {
    @Test func atomicOperations() throws {
        let atomic = Atomic(value: 1)
        #expect(atomic.with { $0 + 1 } == 2)
        #expect(atomic.modify { $0 * 10 } == 10)
        #expect(atomic.swap(3) == 10)
        #expect(try atomic.tryWith { $0 } == 3)
    }

    @Test func tryWithThrowsWhileLocked() {
        let atomic = Atomic(value: 0)
        atomic.with { _ -> Void in
            #expect(throws: AtomicLockError.isLocked) { try atomic.tryWith { $0 } }
        }
    }

    @Test func lockRunsTheClosure() throws {
        let lock = Lock()
        #expect(lock.locked { 42 } == 42)
        #expect(throws: TestError.failed) { try lock.throwingLocked { throw TestError.failed } }
        #expect(lock.tryLocked { 1 } == 1)
    }

    @Test func bagKeepsOrderAndIndicesAreNeverReused() {
        let bag = Bag<String>()
        let a = bag.add("a")
        let b = bag.add("b")
        let c = bag.add("c")
        bag.remove(b)
        #expect(bag.copyItems() == ["a", "c"])
        #expect(bag.get(a) == "a")
        #expect(bag.get(b) == nil)
        let d = bag.add("d")
        #expect(d > c)
        #expect(bag.copyItemsWithIndices().map(\.0) == [a, c, d])
        #expect(bag.first?.1 == "a")
        bag.removeAll()
        #expect(bag.isEmpty)
        #expect(bag.first == nil)
        #expect(bag.add("e") > d)
    }

    @Test func sparseBagIteratesLiveItems() {
        let bag = SparseBag<Int>()
        let one = bag.add(1)
        _ = bag.add(2)
        _ = bag.add(3)
        bag.remove(one)
        #expect(Array(bag) == [2, 3])
        #expect(bag.get(one) == nil)
        #expect(!bag.isEmpty)
    }

    @Test func counterBagCountsHolders() {
        let bag = CounterBag()
        let a = bag.add()
        let b = bag.add()
        #expect(a != b)
        bag.remove(a)
        #expect(!bag.isEmpty)
        bag.remove(b)
        #expect(bag.isEmpty)
    }

    @Test func weakDoesNotRetain() {
        final class Object {}
        var object: Object? = Object()
        let weak = Weak(object!)
        #expect(weak.value != nil)
        object = nil
        #expect(weak.value == nil)
    }
}
