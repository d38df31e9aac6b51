/// Something that can be cancelled: a subscription, a timer, a request. Disposing twice is harmless.
public protocol Disposable: AnyObject, Sendable {
    /// Cancels the work; later calls do nothing.
    func dispose()
}

final class EmptyDisposableImpl: Disposable {
    func dispose() {}
}

/// A disposable that does nothing (for generators with nothing to cancel).
public let EmptyDisposable: Disposable = EmptyDisposableImpl()

/// Runs `action` the first time it is disposed.
public final class ActionDisposable: Disposable {
    private let action: LockedValue<(@Sendable () -> Void)?>

    /// A disposable that runs `action` once, on the first `dispose()`.
    public init(action: @escaping @Sendable () -> Void) {
        self.action = LockedValue.make(action)
    }

    public func dispose() {
        let action = self.action.withLock { value in
            let action = value
            value = nil
            return action
        }
        action?()
    }
}

/// Holds one replaceable disposable: `set` disposes the previous one; after `dispose`, `set` disposes the new one.
public final class MetaDisposable: Disposable {
    private let state = LockedValue<(current: Disposable?, disposed: Bool)>.make((nil, false))

    /// An empty, live holder.
    public init() {}

    /// Replaces the held disposable, disposing the previous one (or `disposable` itself if this one is disposed).
    public func set(_ disposable: Disposable?) {
        let toDispose = state.withLock { state -> Disposable? in
            if state.disposed { return disposable }
            let previous = state.current
            state.current = disposable
            return previous === disposable ? nil : previous
        }
        toDispose?.dispose()
    }

    public func dispose() {
        let current = state.withLock { state -> Disposable? in
            if state.disposed { return nil }
            state.disposed = true
            let current = state.current
            state.current = nil
            return current
        }
        current?.dispose()
    }
}

/// A set of disposables disposed together; additions after `dispose` are disposed at once.
public final class DisposableSet: Disposable {
    private let state = LockedValue<(items: [Disposable], disposed: Bool)>.make(([], false))

    /// An empty, live set.
    public init() {}

    /// Adds a disposable (disposing it at once if the set is already disposed).
    public func add(_ disposable: Disposable) {
        let rejected = state.withLock { state -> Bool in
            if state.disposed { return true }
            state.items.append(disposable)
            return false
        }
        if rejected { disposable.dispose() }
    }

    /// Removes a disposable without disposing it.
    public func remove(_ disposable: Disposable) {
        state.withLock { state in
            if let index = state.items.firstIndex(where: { $0 === disposable }) {
                state.items.remove(at: index)
            }
        }
    }

    /// Removes and returns the most recently added disposable, without disposing it.
    @discardableResult
    public func removeLast() -> Disposable? {
        state.withLock { $0.items.popLast() }
    }

    public func dispose() {
        let items = state.withLock { state -> [Disposable] in
            if state.disposed { return [] }
            state.disposed = true
            let items = state.items
            state.items = []
            return items
        }
        for item in items { item.dispose() }
    }
}

/// Disposables by key: setting a key disposes what it held; `dispose` disposes all and rejects later sets.
public final class DisposableDict<T: Hashable & Sendable>: Disposable {
    private let state = LockedValue<(items: [T: Disposable], disposed: Bool)>.make(([:], false))

    /// An empty, live dictionary.
    public init() {}

    /// Replaces the disposable for `key` (nil removes it), disposing the previous one.
    public func set(_ disposable: Disposable?, forKey key: T) {
        let (previous, rejected) = state.withLock { state -> (Disposable?, Disposable?) in
            if state.disposed { return (nil, disposable) }
            let previous = state.items[key]
            state.items[key] = disposable
            return (previous, nil)
        }
        if let previous, previous !== disposable { previous.dispose() }
        rejected?.dispose()
    }

    public func dispose() {
        let items = state.withLock { state -> [Disposable] in
            if state.disposed { return [] }
            state.disposed = true
            let items = Array(state.items.values)
            state.items = [:]
            return items
        }
        for item in items { item.dispose() }
    }
}

/// Telegram's debug wrapper that reports disposables never disposed; here it only forwards (no leak tracking).
public final class StrictDisposable: Disposable {
    private let disposable: Disposable

    /// Wraps `disposable`; `file` and `line` name where it was made.
    public init(_ disposable: Disposable, file: String, line: Int) {
        self.disposable = disposable
    }

    public func dispose() {
        disposable.dispose()
    }
}

extension Disposable {
    /// Telegram's `strict()`: marks a disposable that must be disposed (API parity; no runtime check).
    public func strict(file: String = #file, line: Int = #line) -> Disposable {
        StrictDisposable(self, file: file, line: line)
    }
}
