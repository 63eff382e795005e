import Foundation
import TributaryCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds items and writes them as JSON Feed (``JSONFeedStream``) on a thread of its own, so that reading and
/// parsing the feed, on the caller's thread, and building items (their text read, their HTML made safe) and writing
/// them, on this one, run side by side: on two cores the wall time of `parse` is close to the longer of the two
/// instead of their sum.
///
/// Items travel as the parser returns them, one array per chunk read (never copied item by item: a `FeedItem` copy
/// costs some twenty reference counts); at most ``capacity`` items wait, so memory stays flat whatever the size of
/// the feed. The JSON Feed stream belongs to the writer's thread alone.
///
/// The parser's items come unbuilt (``PendingFeedItem``), and building them is the work the two threads share.
/// The writer builds each part it takes, unless it is built already. The caller never waits idle for the writer:
/// when the queue is full (the writer is behind: Atom feeds, with long content to make safe), and at the end of the
/// feed, it builds the newest waiting part itself, while the writer works from the oldest. When the writer keeps up
/// (Google News, whose items are short), the caller only parses. Parts are small (some 30 items), so at the end the
/// two threads finish within a part of each other.
final class BackgroundJSONFeedWriter: @unchecked Sendable {
    /// Items, as the parser returned them.
    enum Part {
        case built([WritableFeedItem])
        case pending([PendingFeedItem])

        var count: Int {
            switch self {
            case .built(let items): items.count
            case .pending(let items): items.count
            }
        }

        /// The items, built.
        consuming func build() -> [WritableFeedItem] {
            switch consume self {
            case .built(let items): items
            case .pending(let pending): PendingFeedItem.buildForWriting(pending)
            }
        }
    }

    /// A part in the queue. Its items belong to whichever thread claimed it (``isClaimed``, under the lock).
    private final class Slot: @unchecked Sendable {
        private(set) var part: Part?
        let count: Int
        /// Whether a thread took the part to build it.
        var isClaimed = false
        /// Whether its items are built.
        var isBuilt = false

        init(_ part: Part) {
            count = part.count
            self.part = part
        }

        /// Builds the items, moving them so that the part's array stays uniquely referenced and its items are moved,
        /// not copied.
        func build() {
            if let pending = part.take() { part = .built(pending.build()) }
        }

        /// The items, moved out.
        func take() -> [WritableFeedItem] {
            part.take()?.build() ?? []
        }
    }

    private enum Message {
        case begin(JSONFeed)
        case items(Slot)
        case finish(afterFailure: Bool)
    }

    /// The most items waiting for the writer before the caller turns to building them. Measured on the 100 MB
    /// Google News feed, fewer waiting items did not take less memory (batches of 64: 30 MiB peak, 128: 29.5,
    /// 256: 28; the cause, malloc arenas most likely, was not pinned down).
    private static let capacity = 512

    private let stream: JSONFeedStream
    /// Guards ``messages``, ``waitingItems``, ``isDone`` and the slots' states; signalled whenever one of them changes.
    private let condition = NSCondition()
    private var messages: [Message] = []
    /// The items in the slots of ``messages``.
    private var waitingItems = 0
    private var isDone = false
    /// On the caller's thread: whether the header was sent.
    private var hasBegun = false

    /// Starts the writer's thread.
    init(fileDescriptor: Int32) {
        stream = JSONFeedStream(fileDescriptor: fileDescriptor)
        let thread = Thread { [self] in run() }
        thread.name = "tributary.parse-writer"
        thread.start()
    }

    /// Writes the header once; items sent before it are held by the stream until then.
    func begin(_ header: @autoclosure () -> JSONFeed) {
        guard !hasBegun else { return }
        hasBegun = true
        send(.begin(header()))
    }

    /// Sends items to be written; while ``capacity`` items are already waiting, builds waiting ones instead.
    func write(_ items: Part) {
        guard items.count > 0 else { return }
        send(.items(Slot(items)))
    }

    /// Ends the document (after a failure, only when it was begun) and returns once all of it is written, building
    /// waiting parts meanwhile.
    func finish(afterFailure: Bool) {
        condition.lock()
        messages.append(.finish(afterFailure: afterFailure))
        condition.broadcast()
        while !isDone {
            if !helpBuild() { condition.wait() }
        }
        condition.unlock()
    }

    private func send(_ message: Message) {
        condition.lock()
        while waitingItems >= Self.capacity, !isDone {
            if !helpBuild() { condition.wait() }
        }
        if !isDone {
            messages.append(message)
            if case .items(let slot) = message { waitingItems += slot.count }
            condition.broadcast()
        }
        condition.unlock()
    }

    /// On the caller's thread, with the lock held: builds the newest part no thread has claimed, releasing the
    /// lock meanwhile; returns whether there was one.
    private func helpBuild() -> Bool {
        for message in messages.reversed() {
            guard case .items(let slot) = message, !slot.isClaimed else { continue }
            slot.isClaimed = true
            condition.unlock()
            slot.build()
            condition.lock()
            slot.isBuilt = true
            condition.broadcast()
            return true
        }
        return false
    }

    /// The writer's thread: takes the messages in order until the document is finished.
    private func run() {
        while true {
            condition.lock()
            while messages.isEmpty { condition.wait() }
            let message = messages.removeFirst()
            if case .items(let slot) = message {
                waitingItems -= slot.count
                if slot.isClaimed {
                    // The caller is building it: wait for that.
                    while !slot.isBuilt { condition.wait() }
                } else {
                    slot.isClaimed = true
                }
            }
            condition.broadcast()
            condition.unlock()
            switch consume message {
            case .begin(let header):
                stream.begin(header)
            case .items(let slot):
                stream.write(slot.take())
            case .finish(let afterFailure):
                if !afterFailure || stream.hasBegun { stream.finish() }
                condition.lock()
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }
}
