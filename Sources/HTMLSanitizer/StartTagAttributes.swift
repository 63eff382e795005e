/// The attributes of one start tag as UTF-8, names in lower case and values decoded, in one buffer that is reused
/// from tag to tag: what the policy (``TreeWalker/decide(_:depth:attributes:keeping:)``) reads, whether the tag
/// came from libxml2's tree or from ``SimpleFragmentReader``.
struct StartTagAttributes {
    private var storage: [UInt8] = []
    /// For each attribute, where its name starts, where its value starts (the name ends there) and where it ends.
    private var bounds: [(name: Int, value: Int, end: Int)] = []

    /// The number of attributes.
    var count: Int { bounds.count }

    /// Forgets every attribute, keeping the memory.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        bounds.removeAll(keepingCapacity: true)
    }

    /// Starts an attribute named `name` (lower-cased here); its value is empty until appended to.
    mutating func startAttribute(named name: UnsafeBufferPointer<UInt8>) {
        let start = storage.count
        for byte in name { storage.append(byte.asciiLowercased) }
        bounds.append((start, storage.count, storage.count))
    }

    /// Appends decoded bytes to the value of the last attribute started.
    mutating func appendToValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        storage.append(contentsOf: bytes)
        bounds[bounds.count - 1].end = storage.count
    }

    /// Appends a character to the value of the last attribute started.
    mutating func appendToValue(_ scalar: Unicode.Scalar) {
        storage.append(contentsOf: UTF8.encode(scalar)!)
        bounds[bounds.count - 1].end = storage.count
    }

    /// Whether an attribute named `name` (compared ASCII case-insensitively) was started before the last one.
    func containsEarlier(named name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bounds.count > 1 else { return false }
        return storage.withUnsafeBufferPointer { storage in
            bounds.dropLast().contains { bound in
                bound.value - bound.name == name.count
                    && zip(storage[bound.name..<bound.value], name).allSatisfy { $0 == $1.asciiLowercased }
            }
        }
    }

    /// Calls `body` with functions that give the name and the value of the attribute at a position; the buffers
    /// they return are valid only inside `body`.
    func withNamesAndValues<Result>(
        _ body: (
            _ name: (Int) -> UnsafeBufferPointer<UInt8>,
            _ value: (Int) -> UnsafeBufferPointer<UInt8>
        ) -> Result
    ) -> Result {
        storage.withUnsafeBufferPointer { storage in
            body(
                { UnsafeBufferPointer(rebasing: storage[bounds[$0].name..<bounds[$0].value]) },
                { UnsafeBufferPointer(rebasing: storage[bounds[$0].value..<bounds[$0].end]) }
            )
        }
    }
}
