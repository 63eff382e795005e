/// The growable byte buffer that SAX callbacks append text to.
///
/// It is a class with manually managed storage rather than a `[UInt8]` property so that the hot `characters`
/// callback does no uniqueness check, no retain/release and no dynamic exclusivity check per call.
final class TextBuffer {
    private static let initialCapacity = 4096

    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// The number of bytes held.
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        capacity = Self.initialCapacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes held; valid until the next mutation.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// A copy of the bytes held.
    var array: [UInt8] { Array(bytes) }

    func append(_ source: UnsafePointer<UInt8>, count added: Int) {
        reserve(added)
        if added == 1 {
            // libxml2 reports each character reference on its own (`&lt;a href=…&gt;` is `<`, `a href=…`, `>`):
            // escaped HTML comes in thousands of one-byte pieces, each of which a call to memmove would cost more
            // than the store.
            base[count] = source.pointee
        } else {
            (base + count).update(from: source, count: added)
        }
        count += added
    }

    func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        append(source, count: buffer.count)
    }

    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends text escaped for HTML content (and attribute values, with `quotes`).
    func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>, quotes: Bool = false) {
        var runStart = 0
        for index in 0..<buffer.count {
            let replacement: StaticString
            switch buffer[index] {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22 where quotes: replacement = "&quot;"
            default: continue
            }
            append(UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
            append(replacement.utf8Start, count: replacement.utf8CodeUnitCount)
            runStart = index + 1
        }
        append(UnsafeBufferPointer(rebasing: buffer[runStart..<buffer.count]))
    }

    /// Empties the buffer, giving back memory a huge text node took.
    func removeAll() {
        count = 0
        if capacity > 1 << 20 {
            base.deallocate()
            capacity = Self.initialCapacity
            base = .allocate(capacity: capacity)
        }
    }

    /// Inline, with the growth out of line: it runs on every callback, and was a call of its own before.
    @inline(__always)
    private func reserve(_ added: Int) {
        if count + added > capacity { grow(adding: added) }
    }

    @inline(never)
    private func grow(adding added: Int) {
        var newCapacity = capacity * 2
        while newCapacity < count + added { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
