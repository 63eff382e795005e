/// A value behind one reference that its copies share until one of them changes (copy on write, as `Array`
/// does). For the large structs that travel through a run, the item and its extension: copying one costs one
/// retain instead of one for each of its strings and arrays, and an item is handed on many times between the
/// parser, the pipeline, the store and the digest.
///
/// The box is only ever changed through ``uniqueBox()`` (which ``value``'s `_modify` uses), after it is made
/// unique, so sharing it between threads is safe although it holds a `var`.
struct CopyOnWrite<Value: Sendable>: @unchecked Sendable {
    final class Box {
        /// Unchecked: a box is changed only once unique, so no two accesses can overlap, and the runtime's check
        /// of each access (a million of them in a 200-feed digest) cost more than the copies the box spares.
        @exclusivity(unchecked) var value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    private var box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    /// The value; changing it first gives this copy a box of its own when another copy shares it.
    var value: Value {
        _read { yield box.value }
        _modify { yield &uniqueBox().value }
    }

    /// The box, first given a copy of the value of its own when another copy shares it: for an accessor that changes
    /// one field of the value in place, `_modify { yield &storage.uniqueBox().value.title }`. Yielding the field
    /// through ``value`` instead nests a coroutine in the accessor's coroutine, and their frames were allocated on
    /// the heap at every access: ten allocations an item built.
    @inline(__always)
    mutating func uniqueBox() -> Box {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
        return box
    }

    /// Copies that share one box hold the same value: they are equal without comparing it.
    static func == (lhs: CopyOnWrite, rhs: CopyOnWrite) -> Bool where Value: Equatable {
        lhs.box === rhs.box || lhs.box.value == rhs.box.value
    }
}

extension CopyOnWrite: Equatable where Value: Equatable {}

extension CopyOnWrite: Hashable where Value: Hashable {
    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}

extension CopyOnWrite: CustomReflectable {
    /// The value's fields, not the box: what a test's failure message and `dump` show of an item.
    var customMirror: Mirror { Mirror(reflecting: value) }
}
