import MergeLists

/// A test item: `<` orders by `key`, `==` compares every field (Telegram-iOS's convention for merge entries).
struct Entry: MergeableItem, CustomStringConvertible {
    var id: Int
    var key: Int
    var content: Int = 0

    var stableId: Int { id }

    static func < (a: Entry, b: Entry) -> Bool { a.key < b.key }

    var description: String { "\(id)@\(key)#\(content)" }
}

/// Shorthand for lists in the edge-case tests: `E(3, 10)` is id 3 at key 10.
func E(_ id: Int, _ key: Int, _ content: Int = 0) -> Entry { Entry(id: id, key: key, content: content) }
