import Foundation
import TributaryCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a JSON Feed document to a file descriptor item by item, in blocks of about 64 KiB.
final class JSONFeedStream {
    private var writer = JSONFeedWriter()
    private var buffer: [UInt8] = []
    /// Items seen before the header.
    private var pending: [[WritableFeedItem]] = []
    private(set) var hasBegun = false
    private var hasFinished = false

    private let fileDescriptor: Int32

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(1 << 17)
    }

    /// Writes the header once; items seen before it are held until then.
    func begin(_ header: JSONFeed) {
        guard !hasBegun else { return }
        hasBegun = true
        writer.writeHeader(of: header, into: &buffer)
        var held: [[WritableFeedItem]] = []
        swap(&held, &pending)
        held.reverse()
        while let items = held.popLast() { write(items) }
    }

    /// Writes items; a safe `content_html` kept beside an item as UTF-8 goes into the JSON as it is.
    func write(_ items: consuming [WritableFeedItem]) {
        guard hasBegun else {
            pending.append(items)
            return
        }
        // Each item is moved out of the array while it is written, then moved back: reading it in place (through
        // `withUnsafeBufferPointer`) copied it before each call, and a `FeedItem` copy retains and releases some
        // twenty references. The writer and the buffer are locals meanwhile, sparing an exclusivity check per use.
        var items = items
        var writer = writer
        var buffer: [UInt8] = []
        swap(&buffer, &self.buffer)
        items.withUnsafeMutableBufferPointer { items in
            for index in items.indices {
                let entry = items.moveElement(from: index)
                if let safe = entry.safeContentHTML {
                    writer.writeItem(entry.item, contentHTML: safe, into: &buffer)
                } else if entry.item.contentHTML == nil, entry.item.contentText == nil {
                    writer.writeItem(entry.item.withRequiredContent(), into: &buffer)
                } else {
                    writer.writeItem(entry.item, into: &buffer)
                }
                items.initializeElement(at: index, to: entry)
            }
        }
        self.writer = writer
        swap(&buffer, &self.buffer)
        if self.buffer.count >= 1 << 16 { flush() }
    }

    func finish() {
        guard !hasFinished else { return }
        begin(JSONFeed(title: "", items: []))
        hasFinished = true
        writer.writeFooter(into: &buffer)
        flush()
    }

    /// Writes the buffer to the file descriptor with `write(2)`, without copying it into a `Data` first.
    private func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { bytes in
            guard var cursor = bytes.baseAddress else { return }
            var remaining = bytes.count
            while remaining > 0 {
                let written = systemWrite(fileDescriptor, cursor, remaining)
                if written > 0 {
                    cursor += written
                    remaining -= written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // the output is gone (a closed pipe); nothing more can be shown
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `write(2)`, named apart from the `write` methods above.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
