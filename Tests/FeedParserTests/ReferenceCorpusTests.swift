import FeedParser
import Foundation
import Testing
import TributaryCore

/// Compares ``FeedParser`` with Python feedparser's reading of the corpus in `Corpus/` (feeds from feedparser's
/// own test suite plus a few written for Tributary; see `Corpus/SOURCES.md`). feedparser's results are recorded in
/// `Corpus/reference.json` by `scripts/corpus/reference.py`, which also documents how its values are normalised.
///
/// Well-formed feeds must give the same titles, links, ids and dates; broken ones (feedparser's `bozo`) must not
/// throw away what feedparser keeps. A difference passes only when ``knownDifferences`` explains it (a deliberate
/// Tributary choice) or ``parserBugs`` lists it (a parser bug, reported as a known issue so it stays visible).
@Suite struct ReferenceCorpusTests {
    /// Differences that are deliberate Tributary choices, one line of reason each. Anything else fails.
    static let knownDifferences: [KnownDifference] = [
        KnownDifference(
            .id,
            "feedparser leaves the id empty; Tributary derives one (SRC-2): the link, else a stable hash"
        ) {
            $0.theirs == nil && ($0.ours == $0.ourLink || $0.ours?.hasPrefix("tributary:") == true)
        },
        KnownDifference(.id, "Tributary keeps an id as written (stable, SRC-2); feedparser resolves a relative one") {
            guard let ours = $0.ours, let theirs = $0.theirs, !ours.contains(":") else { return false }
            return isHTTP(theirs) && theirs.hasSuffix(ours)
        },
        KnownDifference(
            .link,
            "feedparser makes any guid or Atom id the link; Tributary only an http(s) permalink guid"
        ) {
            $0.ours == nil && $0.theirs != nil && $0.theirs == $0.theirID
        },
        KnownDifference(.link, "feedparser takes a nested <image><id> as the entry link (its bug); ours is its own id")
        {
            $0.isEntry(1, of: "feedparser/wellformed/node_precedence/atom10_id.xml")
                && $0.ours == "http://127.0.0.1:8097/tests/Correct Value"
        },
        KnownDifference(
            .link,
            "a raw '&lang=' in a link: feedparser decodes '&lang' to U+2329 (HTML5 does not); Tributary keeps '&lang='"
        ) {
            $0.isEntry(0, of: "tributary/broken-unescaped-ampersand.xml")
                && $0.ours == "http://example.com/item?id=1&lang=en"
        },
        KnownDifference(
            .datePublished,
            "an entry with <issued> and <published>: Tributary keeps the first, feedparser the last"
        ) {
            $0.isEntry(0, of: "feedparser/wellformed/atom/entry_published_parsed_date_overwriting.xml")
                && $0.ours == "2004-01-01T19:48:21Z"
        },
        KnownDifference(
            .datePublished,
            "feedparser reads JST as UTC and drops a Spanish day name; Tributary gets both right"
        ) {
            ($0.isEntry(0, of: "tributary/dates-named-zones.xml") && $0.ours == "2026-11-22T00:00:00Z")
                || ($0.isEntry(6, of: "tributary/dates-named-zones.xml") && $0.ours == "2026-11-22T08:00:00Z")
        },
        KnownDifference(
            .datePublished,
            "feedparser rolls 25:14 and 10:61 over and reads 2013-xx-27 as November; invalid is missing"
        ) { difference in
            let file = "tributary/dates-w3cdtf-atom.xml"
            return [9, 10, 17].contains { difference.isEntry($0, of: file) } && difference.ours == nil
        },
    ]

    /// Genuine parser bugs found by this corpus, by file and field. Each runs as a known issue, so the suite stays
    /// green while the bug stays visible; once a bug is fixed its line fails the test and must be deleted.
    static let parserBugs: [BugKey: String] = [:]

    @Test(.timeLimit(.minutes(1)), arguments: ReferenceCorpus.fileNames)
    func agreesWithFeedparser(_ file: String) throws {
        let expected = try #require(ReferenceCorpus.reference?.files[file])
        let differences = try ReferenceCorpus.compare(file: file, with: expected).differences
        let unexplained = differences.filter { difference in
            !Self.knownDifferences.contains { $0.explains(difference) }
        }
        let byField = Dictionary(grouping: unexplained) { BugKey(file: file, field: $0.field) }
        for (key, group) in byField.sorted(by: { $0.key.field.rawValue < $1.key.field.rawValue }) {
            if let bug = Self.parserBugs[key] {
                withKnownIssue(Comment(rawValue: bug)) {
                    for difference in group { Issue.record(Comment(rawValue: difference.description)) }
                }
            } else {
                for difference in group { Issue.record(Comment(rawValue: difference.description)) }
            }
        }
        for key in Self.parserBugs.keys where key.file == file && byField[key] == nil {
            Issue.record("\(file): \(key.field.rawValue) now matches feedparser; remove it from parserBugs")
        }
    }

    @Test func corpusIsBroadAndEveryFileHasAReference() throws {
        let reference = try #require(ReferenceCorpus.reference, "Corpus/reference.json is missing or unreadable")
        let onDisk = try ReferenceCorpus.feedFilesInBundle()
        #expect(onDisk == Set(reference.files.keys), "run scripts/corpus/reference.py after changing the corpus")
        #expect(onDisk.count >= 60)
        #expect(reference.files.values.contains { $0.bozo } && reference.files.values.contains { !$0.bozo })
        let bugFiles = Set(Self.parserBugs.keys.map(\.file))
        #expect(bugFiles.isSubset(of: onDisk), "parserBugs names a file that is not in the corpus")

        // The match rate per field, attached for the report (`swift test --attachments-path DIR`): values equal to
        // feedparser's, values that differ for a reason in knownDifferences, values under a known parser bug, and
        // values of entries we do not have (an entry count difference).
        var tally: [Field: [Int]] = [:]
        for (file, expected) in reference.files.sorted(by: { $0.key < $1.key }) {
            let comparison = try ReferenceCorpus.compare(file: file, with: expected)
            for field in Field.allCases {
                let perEntry = ![.parse, .entryCount, .feedTitle].contains(field)
                let total = perEntry ? expected.entries.count : 1
                let compared = perEntry ? comparison.comparedEntries : 1
                let differing = comparison.differences.filter { $0.field == field }
                let explained = differing.filter { difference in
                    Self.knownDifferences.contains { $0.explains(difference) }
                }.count
                let bugs = Self.parserBugs[BugKey(file, field)] == nil ? 0 : differing.count - explained
                let counts = [compared - differing.count, explained, bugs, total - compared, total]
                tally[field] = zip(tally[field] ?? [0, 0, 0, 0, 0], counts).map { $0 + $1 }
            }
        }
        var report = "\(onDisk.count) files, \(reference.files.values.filter(\.bozo).count) bozo\n"
        report += "field: equal / known difference / known bug / entry missing, of total\n"
        for field in Field.allCases {
            guard let counts = tally[field], counts[4] > 0 else { continue }
            report += "\(field.rawValue): \(counts[0]) / \(counts[1]) / \(counts[2]) / \(counts[3]), of \(counts[4])\n"
        }
        Attachment.record(report, named: "corpus-match-rates.txt")
    }

    private static func isHTTP(_ string: String?) -> Bool {
        guard let string else { return false }
        return string.hasPrefix("http://") || string.hasPrefix("https://")
    }
}

/// A compared value.
enum Field: String, CaseIterable, Sendable {
    case parse, entryCount = "entry count", feedTitle = "feed title", title, link, id
    case datePublished = "date_published", dateModified = "date_modified"
}

/// One parser bug: a field of a corpus file.
struct BugKey: Hashable, Sendable {
    var file: String
    var field: Field

    init(_ file: String, _ field: Field) {
        self.file = file
        self.field = field
    }

    init(file: String, field: Field) {
        self.init(file, field)
    }
}

/// One disagreement with feedparser, with what a ``KnownDifference`` may need to judge it.
struct Difference: Sendable, CustomStringConvertible {
    var file: String
    var entry: Int?
    var field: Field
    var ours: String?
    var theirs: String?
    var ourLink: String?
    var theirID: String?

    func isEntry(_ index: Int, of file: String) -> Bool {
        self.file == file && entry == index
    }

    var description: String {
        let place = entry.map { "entry \($0)" } ?? "feed"
        return "\(file), \(place), \(field.rawValue): ours \(Self.show(ours)), feedparser \(Self.show(theirs))"
    }

    private static func show(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "nil"
    }
}

/// A deliberate difference from feedparser, with the reason.
struct KnownDifference: Sendable {
    var field: Field
    var reason: String
    var matches: @Sendable (Difference) -> Bool

    init(_ field: Field, _ reason: String, matches: @escaping @Sendable (Difference) -> Bool) {
        self.field = field
        self.reason = reason
        self.matches = matches
    }

    func explains(_ difference: Difference) -> Bool {
        difference.field == field && matches(difference)
    }
}

/// `Corpus/reference.json` and the comparison of one corpus file with it.
enum ReferenceCorpus {
    struct Reference: Decodable {
        var baseURL: String
        var files: [String: FileReference]

        enum CodingKeys: String, CodingKey {
            case baseURL = "base_url"
            case files
        }
    }

    struct FileReference: Decodable {
        var baseURL: String
        var bozo: Bool
        var bozoException: String?
        var feed: FeedReference
        var entries: [EntryReference]

        enum CodingKeys: String, CodingKey {
            case baseURL = "base_url"
            case bozo
            case bozoException = "bozo_exception"
            case feed, entries
        }
    }

    struct FeedReference: Decodable {
        var title: String?
    }

    struct EntryReference: Decodable {
        var title: String?
        var link: String?
        var id: String?
        var datePublished: String?
        var dateModified: String?

        enum CodingKeys: String, CodingKey {
            case title, link, id
            case datePublished = "date_published"
            case dateModified = "date_modified"
        }
    }

    static let corpusURL: URL? = Bundle.module.url(forResource: "Corpus", withExtension: nil)

    static let reference: Reference? = {
        guard let url = corpusURL?.appendingPathComponent("reference.json"),
            let data = try? Data(contentsOf: url)
        else { return nil }
        return try? JSONDecoder().decode(Reference.self, from: data)
    }()

    /// Every corpus file with a reference, sorted; empty when reference.json is unreadable (which
    /// `corpusIsBroadAndEveryFileHasAReference` reports).
    static let fileNames: [String] = reference.map { $0.files.keys.sorted() } ?? []

    static func feedFilesInBundle() throws -> Set<String> {
        let root = try #require(corpusURL)
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var names: Set<String> = []
        for case let url as URL in enumerator where url.pathExtension == "xml" {
            names.insert(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return names
    }

    /// Parses a corpus file and lists every disagreement with feedparser's reading of it, with the number of
    /// entries whose fields were compared (those both parsers have, in document order).
    static func compare(
        file: String,
        with expected: FileReference
    ) throws -> (differences: [Difference], comparedEntries: Int) {
        let root = try #require(corpusURL)
        let data = try Data(contentsOf: root.appendingPathComponent(file))
        let options = FeedParserOptions(baseURL: URL(string: expected.baseURL), sourceID: "corpus")
        let result: (metadata: FeedMetadata, items: [FeedItem], warnings: [SourceWarning])
        do {
            result = try FeedParser.parse(data: data, options: options)
        } catch {
            // A document feedparser finds nothing in may be rejected; anything else is a lost feed.
            if expected.entries.isEmpty, expected.feed.title == nil { return ([], 0) }
            let difference = [
                Difference(
                    file: file,
                    field: .parse,
                    ours: "threw: \(error)",
                    theirs: "\(expected.entries.count) entries, title \(expected.feed.title ?? "nil")"
                )
            ]
            return (difference, 0)
        }
        var differences: [Difference] = []
        if result.metadata.title != expected.feed.title {
            differences.append(
                Difference(file: file, field: .feedTitle, ours: result.metadata.title, theirs: expected.feed.title)
            )
        }
        // A broken feed may keep more items than feedparser (libxml2 recovers differently), never fewer.
        let countOK =
            expected.bozo ? result.items.count >= expected.entries.count : result.items.count == expected.entries.count
        if !countOK {
            differences.append(
                Difference(
                    file: file,
                    field: .entryCount,
                    ours: String(result.items.count),
                    theirs: String(expected.entries.count)
                )
            )
        }
        for (index, (item, entry)) in zip(result.items, expected.entries).enumerated() {
            let pairs: [(Field, String?, String?)] = [
                (.title, item.title, entry.title),
                (.link, item.url, entry.link),
                (.id, item.id, entry.id),
                (.datePublished, item.datePublished.map(wholeSeconds), entry.datePublished),
                (.dateModified, item.dateModified.map(wholeSeconds), entry.dateModified),
            ]
            for (field, ours, theirs) in pairs where ours != theirs {
                differences.append(
                    Difference(
                        file: file,
                        entry: index,
                        field: field,
                        ours: ours,
                        theirs: theirs,
                        ourLink: item.url,
                        theirID: entry.id
                    )
                )
            }
        }
        return (differences, min(result.items.count, expected.entries.count))
    }

    /// RFC 3339 in UTC to the second: feedparser's dates (`time.struct_time`) carry no fraction.
    private static func wholeSeconds(_ date: Date) -> String {
        RFC3339.format(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }
}
