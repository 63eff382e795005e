import Foundation
import TributaryCore

/// The checks that look at one item at a time: SRC-2 (non-empty id), SRC-3, SRC-4 (bounds), SRC-5, SRC-6, SRC-7.
struct ItemInspector {
    var sourceID: SourceID
    var fixture: ConformanceFixture
    var options: ConformanceOptions

    /// Checks every item of a run.
    func inspect(_ record: RunRecord, into collector: inout ViolationCollector) {
        for (index, item) in record.items.enumerated() {
            inspect(item, label: label(of: item, index: index), record: record, into: &collector)
        }
    }

    // MARK: - Private

    private func label(of item: FeedItem, index: Int) -> String {
        item.id.isEmpty ? "item #\(index + 1)" : "item \"\(item.id.prefix(80))\""
    }

    private func inspect(_ item: FeedItem, label: String, record: RunRecord, into collector: inout ViolationCollector) {
        if item.id.allSatisfy(\.isWhitespace) {
            collector.add(
                "SRC-2",
                "\(label) has an empty id; derive one (FeedItem.derivedID()) when the input has none"
            )
        }
        if item.sourceID != sourceID {
            let found = item.sourceID.map { "'\($0)'" } ?? "no source id"
            collector.add("SRC-3", "\(label) carries \(found), not '\(sourceID)', in _tributary.source")
        }
        checkDates(of: item, label: label, record: record, into: &collector)
        var urls: [(String, String?)] = [
            ("url", item.url), ("external_url", item.externalURL), ("image", item.image),
            ("banner_image", item.bannerImage),
        ]
        urls += item.attachments.map { ("attachments[].url", $0.url) }
        urls += item.authors.flatMap { [("authors[].url", $0.url), ("authors[].avatar", $0.avatar)] }
        for (field, value) in urls {
            if let value, !Self.isAbsoluteURL(value) {
                collector.add("SRC-5", "\(label): \(field) \"\(value.prefix(120))\" is not an absolute URL")
            }
        }
        for (field, value) in [("title", item.title), ("summary", item.summary)] {
            guard let value else { continue }
            for finding in PlainTextScanner.findings(in: value) {
                collector.add("SRC-6", "\(label): \(field) is not plain text: it holds \(finding)")
            }
        }
        if let html = item.contentHTML {
            for finding in HTMLSafetyScanner.findings(in: html) {
                collector.add("SRC-7", "\(label): content_html is not sanitized: it holds \(finding)")
            }
        }
    }

    private func checkDates(
        of item: FeedItem,
        label: String,
        record: RunRecord,
        into collector: inout ViolationCollector
    ) {
        let latest = record.wallEnd.addingTimeInterval(Self.seconds(options.futureTolerance))
        for (field, date) in [("date_published", item.datePublished), ("date_modified", item.dateModified)] {
            guard let date else { continue }
            let text = RFC3339.format(date)
            if date > latest {
                collector.add(
                    "SRC-4",
                    "\(label): \(field) \(text) lies more than \(Self.describe(options.futureTolerance)) after the run; was an offset dropped?"
                )
            }
            if let range = fixture.inputDates, !range.contains(date) {
                collector.add(
                    "SRC-4",
                    "\(label): \(field) \(text) is outside the dates of the input (\(RFC3339.format(range.lowerBound)) … \(RFC3339.format(range.upperBound))): an offset was dropped or a date invented"
                )
            }
        }
    }

    /// Whether `string` is an absolute URL: it has a scheme, and a web URL has a host.
    static func isAbsoluteURL(_ string: String) -> Bool {
        guard !string.hasPrefix("//"), let url = URL(string: string), let scheme = url.scheme, !scheme.isEmpty else {
            return false
        }
        if ["http", "https", "ws", "wss", "ftp"].contains(scheme.lowercased()) {
            return !(url.host ?? "").isEmpty
        }
        return true
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// A duration in milliseconds, for messages.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = seconds(duration) * 1000
        return milliseconds >= 1000 && milliseconds.truncatingRemainder(dividingBy: 1000) == 0
            ? "\(Int(milliseconds / 1000)) s" : "\(Int(milliseconds.rounded())) ms"
    }
}
