import Foundation
import Synchronization
import TributaryCore

/// An adapter whose behaviour the test picks: well-behaved, or broken in one way, one rule at a time.
struct TestSource: Source {
    enum Behaviour: String, Decodable, Sendable, CaseIterable {
        case wellBehaved, emptyFeed, failsMalformed, warnsMalformed
        case slowInit, throwingInit
        case emptyID, randomIDs
        case missingSourceID
        case dateIsNow, futureDate, droppedOffset
        case relativeURL, protocolRelativeImage
        case tagInTitle, entityInSummary
        case scriptInContent, eventHandlerInContent, hiddenJavaScriptURL
        case noStarted, twoTerminals, itemsAfterFinished, noTerminal, throwsAfterFinished, lateEvent
        case finishesQuietlyOnMalformed, finishesOnUnreachable, itemsOnEmpty, hangs
        case ignoresCancellation
        case sharedBuffer
        case oneBatch
    }

    struct Options: Decodable, Sendable {
        var behaviour: Behaviour
        /// Keys the shared state of `sharedBuffer`, so tests running in parallel do not meet.
        var token: String = ""
    }

    static let kind = "kit-test"
    static let documentation = SourceDocumentation(summary: "A test adapter.", options: [], example: "{}")

    /// The state `sharedBuffer` deliberately shares between instances.
    private static let sharedBuffers = Mutex<[String: [FeedItem]]>([:])

    let id: SourceID
    let options: Options
    let context: SourceContext

    init(id: SourceID, options: Options, context: SourceContext) throws {
        switch options.behaviour {
        case .slowInit:
            // Stands for an init that connects to the network.
            Thread.sleep(forTimeInterval: 0.12)
        case .throwingInit:
            throw SourceOptionError(key: "url", message: "cannot be reached")
        default:
            break
        }
        self.id = id
        self.options = options
        self.context = context
    }

    init(_ behaviour: Behaviour, token: String = "") throws {
        try self.init(
            id: "kit-test",
            options: Options(behaviour: behaviour, token: token),
            context: SourceContext(baseDirectory: URL(fileURLWithPath: "/nonexistent"))
        )
    }

    /// The dates of the well-formed input: all on 2026-11-20, UTC.
    static let inputDates = date("2026-11-20T00:00:00Z")...date("2026-11-20T23:59:59Z")

    static func date(_ text: String) -> Date {
        RFC3339.parse(text) ?? Date(timeIntervalSince1970: 0)
    }

    func run(into sink: EventSink) async throws {
        let behaviour = options.behaviour
        if behaviour != .noStarted { await sink.started() }
        switch behaviour {
        case .emptyFeed, .finishesQuietlyOnMalformed:
            await sink.finished()
            return
        case .failsMalformed:
            await sink.failed(SourceError(sourceID: id, reason: .notAFeed(path: "input", detail: "garbage")))
            return
        case .warnsMalformed:
            await sink.warning("skipped a broken item", location: "items[1]")
            await sink.items([item(0)])
            await sink.finished()
            return
        case .hangs:
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
            throw CancellationError()
        case .ignoresCancellation:
            let end = ContinuousClock.now + .milliseconds(600)
            while ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(10)) }
        case .sharedBuffer:
            let mine = (0..<4).map(item)
            Self.sharedBuffers.withLock { $0[options.token, default: []] += mine }
            try await Task.sleep(for: .milliseconds(50))
            let taken = Self.sharedBuffers.withLock { $0.removeValue(forKey: options.token) ?? [] }
            await sink.items(taken)
            await sink.finished()
            return
        default:
            break
        }
        let items = (0..<4).map(item)
        if behaviour == .finishesOnUnreachable {
            await sink.finished()
            return
        }
        if behaviour == .oneBatch {
            await sink.items(items)
        } else {
            await sink.items(Array(items[0..<2]))
            try Task.checkCancellation()
            await sink.items(Array(items[2...]))
        }
        try Task.checkCancellation()
        switch behaviour {
        case .twoTerminals:
            await sink.finished()
            await sink.failed(SourceError(sourceID: id, reason: .other("second terminal")))
        case .itemsAfterFinished:
            await sink.finished()
            await sink.items([item(9)])
        case .noTerminal:
            return
        case .throwsAfterFinished:
            await sink.finished()
            throw SourceError(sourceID: id, reason: .other("thrown after finished"))
        case .lateEvent:
            await sink.finished()
            // Deliberately broken: work left running after `run` returns.
            Task {
                try? await Task.sleep(for: .milliseconds(30))
                await sink.warning("late")
            }
        case .itemsOnEmpty, .wellBehaved:
            await sink.finished()
        default:
            await sink.finished()
        }
    }

    /// The `index`th item, well-formed except where the behaviour breaks it.
    func item(_ index: Int) -> FeedItem {
        var item = FeedItem(
            id: "https://example.org/posts/\(index)",
            url: "https://example.org/posts/\(index)",
            title: "Post \(index): a < b, AT&T",
            contentHTML:
                #"<p>Hello <a href="https://example.org/">world</a> <img src="https://example.org/i.png" alt="data: none"></p>"#,
            summary: "Summary \(index)",
            image: "https://example.org/\(index).png",
            datePublished: Self.date("2026-11-20T0\(index % 10):00:00Z"),
            attachments: [.init(url: "https://example.org/\(index).mp3", mimeType: "audio/mpeg")]
        )
        item.sourceID = id
        guard index == 1 else { return item }
        switch options.behaviour {
        case .emptyID: item.id = ""
        case .randomIDs: item.id = UUID().uuidString
        case .missingSourceID: item.sourceID = nil
        case .dateIsNow: item.datePublished = context.now()
        case .futureDate: item.dateModified = context.now().addingTimeInterval(365 * 86_400)
        case .droppedOffset: item.datePublished = Self.date("2026-11-20T22:00:00-09:00")
        case .relativeURL: item.url = "/posts/1"
        case .protocolRelativeImage: item.image = "//cdn.example.org/1.png"
        case .tagInTitle: item.title = "Post <b>one</b>"
        case .entityInSummary: item.summary = "Fish &amp; chips"
        case .scriptInContent: item.contentHTML = "<p>Hi</p><SCRIPT>alert(1)</SCRIPT>"
        case .eventHandlerInContent: item.contentHTML = #"<img src="https://example.org/x.png" onerror="alert(1)">"#
        case .hiddenJavaScriptURL: item.contentHTML = #"<a href="jav&#x61;script&colon;alert(1)">x</a>"#
        default: break
        }
        return item
    }
}
