import Foundation
import Synchronization
import Testing
import TributaryCore

@testable import TributaryCLI

@Suite struct ProgressReporterTests {
    final class Capture: Sendable {
        let text = Mutex("")
        func append(_ string: String) { text.withLock { $0 += string } }
    }

    @Test func plainModePrintsOneLinePerOutcomeAndNoEscapes() async {
        let capture = Capture()
        let reporter = ProgressReporter(live: false, write: { capture.append($0) })
        await reporter.begin(sources: [("a", nil), ("b", nil)])
        await reporter.handle(.sourceStatusChanged(SourceStatus(sourceID: "a", kind: "k", state: .running)))
        await reporter.handle(
            .sourceStatusChanged(SourceStatus(sourceID: "a", kind: "k", state: .succeeded, itemCount: 1))
        )
        let error = SourceError(sourceID: "b", reason: .other("bad \u{1B}[31mred\u{1B}[0m input"))
        await reporter.handle(.sourceStatusChanged(SourceStatus(sourceID: "b", kind: "k", state: .failed(error))))
        await reporter.end()
        let text = capture.text.withLock { $0 }
        #expect(text == "tributary: a: ok, 1 item\ntributary: b: FAILED: bad red input\n")
        #expect(!text.contains("\u{1B}"))
    }

    @Test func quietModeKeepsOnlyFailures() async {
        let capture = Capture()
        let reporter = ProgressReporter(live: false, quiet: true, write: { capture.append($0) })
        await reporter.begin(sources: [("a", nil)])
        await reporter.handle(.sourceStatusChanged(SourceStatus(sourceID: "a", kind: "k", state: .succeeded)))
        #expect(capture.text.withLock { $0 }.isEmpty)
    }

    @Test func quietModeDrawsNoStatusLineEvenOnATerminal() async {
        let capture = Capture()
        let reporter = ProgressReporter(live: true, quiet: true, write: { capture.append($0) })
        await reporter.begin(sources: [("a", nil)])
        await reporter.handle(.sourceStatusChanged(SourceStatus(sourceID: "a", kind: "k", state: .running)))
        await reporter.handle(.sourceStatusChanged(SourceStatus(sourceID: "a", kind: "k", state: .succeeded)))
        await reporter.end()
        #expect(capture.text.withLock { $0 }.isEmpty)
    }

    @Test func liveModeRedrawsAStatusLineAndClearsIt() async {
        let capture = Capture()
        let reporter = ProgressReporter(live: true, write: { capture.append($0) })
        await reporter.begin(sources: [("a", nil)])
        await reporter.handle(.sourceStatusChanged(SourceStatus(sourceID: "a", kind: "k", state: .running)))
        await reporter.end()
        let text = capture.text.withLock { $0 }
        #expect(text.contains("[0/1] fetching a"))
        #expect(text.hasSuffix("\r\u{1B}[2K"))
    }
}
