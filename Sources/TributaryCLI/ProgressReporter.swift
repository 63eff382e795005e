import Foundation
import Renderers
import TributaryCore

/// Reports the progress of a run on standard error: on a terminal a live status line above which each source's
/// outcome is printed as it finishes; otherwise (cron, CI, a pipe) one plain line per outcome, so logs stay
/// readable.
actor ProgressReporter: RunProgress {
    private let isLive: Bool
    private let quiet: Bool
    private let write: @Sendable (String) -> Void
    private var order: [SourceID] = []
    private var titles: [SourceID: String] = [:]
    private var states: [SourceID: SourceStatus.State] = [:]
    private var lineIsShown = false

    /// - Parameters:
    ///   - live: redraw a status line (only when standard error is a terminal).
    ///   - quiet: print only failures and warnings: no status line either.
    ///   - write: where text goes; standard error by default.
    init(
        live: Bool = Terminal.isTerminal(2),
        quiet: Bool = false,
        write: @escaping @Sendable (String) -> Void = { StandardError.writeRaw($0) }
    ) {
        self.isLive = live && !quiet
        self.quiet = quiet
        self.write = write
    }

    /// Sources' outcomes and warnings only: a run's items are not shown while it runs.
    nonisolated var wantsItems: Bool { false }

    func begin(sources: [(id: SourceID, title: String?)]) {
        order = sources.map(\.id)
        for source in sources {
            titles[source.id] = source.title
            states[source.id] = .pending
        }
        redraw()
    }

    func handle(_ event: PipelineEvent) {
        switch event {
        case .sourceStatusChanged(let status):
            states[status.sourceID] = status.state
            if status.state.isFinal { report(status) }
            redraw()
        case .warning(let sourceID, let warning):
            printLine("\(sourceID): warning: \(TerminalText.sanitize(warning.description))")
        case .itemsAdded, .itemsUpdated, .itemsRemoved:
            break
        }
    }

    func end() {
        clearLine()
    }

    // MARK: - Private

    private func report(_ status: SourceStatus) {
        let seconds = status.duration.map { " in " + Self.format($0) } ?? ""
        switch status.state {
        case .succeeded:
            if !quiet { printLine("\(status.sourceID): ok, \(Self.count(status.itemCount))\(seconds)") }
        case .notModified:
            if !quiet { printLine("\(status.sourceID): not modified, \(Self.count(status.itemCount))\(seconds)") }
        case .failed(let error):
            printLine("\(status.sourceID): FAILED: \(TerminalText.sanitize(error.reasonDescription))")
        case .pending, .running:
            break
        }
    }

    private func printLine(_ line: String) {
        clearLine()
        write("tributary: " + line + "\n")
        redraw()
    }

    private func redraw() {
        guard isLive else { return }
        let done = order.filter { states[$0]?.isFinal == true }.count
        let running = order.filter { states[$0] == .running }.map(\.rawValue)
        var line = "[\(done)/\(order.count)] "
        line +=
            running.isEmpty
            ? (done == order.count ? "done" : "starting") : "fetching " + running.joined(separator: ", ")
        let width = Terminal.width(of: 2)
        if line.count > width - 1 { line = String(line.prefix(max(0, width - 2))) + "…" }
        write("\r\u{1B}[2K" + line)
        lineIsShown = true
    }

    private func clearLine() {
        guard isLive, lineIsShown else { return }
        write("\r\u{1B}[2K")
        lineIsShown = false
    }

    private static func count(_ items: Int) -> String {
        items == 1 ? "1 item" : "\(items) items"
    }

    private static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return String(format: "%.2f s", value)
    }
}
