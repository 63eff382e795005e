import Foundation
import Renderers
import TributaryCore

/// What `watch` prints: one line per new item on standard output, status changes and warnings on standard error,
/// and on a terminal a status line with each source's state and item count. Everything from a feed is sanitized
/// with ``TerminalText`` first, so a title cannot move the cursor or change colours.
actor WatchPrinter {
    private let order: [SourceID]
    private var titles: [SourceID: String] = [:]
    private var states: [SourceID: String] = [:]
    private var counts: [SourceID: Int] = [:]
    private let formatter: DateFormatter
    private let isLive: Bool
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    private var lineIsShown = false

    init(
        sources: [(id: SourceID, title: String?)],
        timeZone: TimeZone,
        live: Bool,
        writeOut: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeErr: @escaping @Sendable (String) -> Void = { StandardError.writeRaw($0) }
    ) {
        order = sources.map(\.id)
        for source in sources {
            titles[source.id] = source.title
            states[source.id] = "waiting"
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm:ss"
        self.formatter = formatter
        self.isLive = live
        self.writeOut = writeOut
        self.writeErr = writeErr
    }

    func begin() { redraw() }

    func end() { clearLine() }

    func handle(_ event: PipelineEvent, at date: Date = Date()) {
        switch event {
        case .itemsAdded(let items):
            clearLine()
            for item in items { writeOut(line(for: item, at: date) + "\n") }
            redraw()
        case .sourceStatusChanged(let status):
            let state = Self.describe(status.state)
            counts[status.sourceID] = status.itemCount
            if states[status.sourceID] != state {
                states[status.sourceID] = state
                printStatus("\(status.sourceID): \(state)")
            } else {
                redraw()
            }
        case .warning(let sourceID, let warning):
            printStatus("\(sourceID): warning: \(TerminalText.sanitize(warning.description))")
        case .itemsUpdated, .itemsRemoved:
            break
        }
    }

    /// One item's line: local time, source, title, link.
    func line(for item: FeedItem, at date: Date) -> String {
        let source = item.sourceID.map { "\($0)" } ?? "?"
        let title = TerminalText.sanitize(item.title ?? "(untitled)")
        let link = TerminalText.sanitize(item.url ?? item.externalURL ?? "")
        return [formatter.string(from: date), source, title, link].filter { !$0.isEmpty }.joined(separator: "  ")
    }

    // MARK: - Private

    private static func describe(_ state: SourceStatus.State) -> String {
        switch state {
        case .pending: "waiting"
        case .running: "running"
        case .succeeded: "done"
        case .notModified: "not modified"
        case .failed(let error): "FAILED: \(TerminalText.sanitize(error.reasonDescription))"
        }
    }

    private func printStatus(_ text: String) {
        clearLine()
        writeErr("tributary: \(text)\n")
        redraw()
    }

    private func redraw() {
        guard isLive else { return }
        let parts = order.map { id -> String in
            let state = states[id] ?? "waiting"
            let short = state.hasPrefix("FAILED") ? "failed" : state
            return "\(id) \(short) \(counts[id] ?? 0)"
        }
        let text = TerminalText.truncate(parts.joined(separator: " · "), toWidth: max(10, Terminal.width(of: 2) - 1))
        writeErr("\r\u{1B}[2K" + text)
        lineIsShown = true
    }

    private func clearLine() {
        guard isLive, lineIsShown else { return }
        writeErr("\r\u{1B}[2K")
        lineIsShown = false
    }
}
