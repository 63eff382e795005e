import Foundation

/// A source adapter: something that produces feed items, such as an RSS feed, a push socket or a local file.
///
/// Every adapter stands behind this one protocol, and the pipeline treats them all alike. An adapter is
/// constructed from its slice of a feeds.json entry (``Options``) and then run once per fetch, pushing
/// ``SourceEvent``s into an ``EventSink``.
///
/// The rules every adapter follows (the conformance kit checks each by its id):
///
/// - SRC-1: `init` validates its options and does nothing else: no I/O, no blocking, no tasks.
/// - SRC-2: every item id is non-empty and stable: the same input yields the same ids on every run.
/// - SRC-3: every item carries the source's id in `_tributary.source` (``FeedItem/sourceID``).
/// - SRC-4: dates are UTC instants; an offset in the input is applied, never dropped, and an unknown date is `nil`,
///   never "now".
/// - SRC-5: item URLs (`url`, `external_url`, `image`, attachments) are absolute.
/// - SRC-6: titles and summaries are plain text: no tags, no entities left.
/// - SRC-7: `content_html` holds only sanitized HTML.
/// - SRC-8: events come in order: exactly one `started` first, then items, warnings and checkpoints, then exactly
///   one terminal event (`finished`, `notModified` or `failed`) and nothing after it. Throwing from ``run(into:)``
///   before a terminal event stands for `failed`. `notModified` is only sent when ``SourceContext/savedState`` says
///   what the source had, and then with no items before it.
/// - SRC-9: an empty input finishes with zero items; a malformed input ends in `failed` or in `warning`s, never in
///   a crash or a hang.
/// - SRC-10: after its task is cancelled, `run` returns promptly (within a second) and releases every socket, file
///   and process it opened.
/// - SRC-11: no global state and no `print`: log through ``SourceContext/logger`` and read time from the context.
/// - SRC-12: items are emitted in batches as they are read, not all at the end.
public protocol Source: Sendable {
    /// This adapter's options: its slice of the feeds.json entry (the entry's other keys are the common ones).
    associatedtype Options: Decodable & Sendable

    /// The `kind` string that selects this adapter in feeds.json: public, stable, lower-kebab-case.
    static var kind: String { get }

    /// What the adapter reads and which options it takes, for `tributary sources` and the JSON Schema.
    static var documentation: SourceDocumentation { get }

    /// The id of this source, from feeds.json.
    var id: SourceID { get }

    /// Creates the source. Validates `options` and performs no I/O (SRC-1).
    /// - Throws: ``SourceOptionError`` when an option is present but unusable.
    init(id: SourceID, options: Options, context: SourceContext) throws

    /// Runs the source once: emits `started`, items as they are read, and one terminal event (SRC-8).
    /// Returns when the source is exhausted or its task is cancelled (SRC-10).
    func run(into sink: EventSink) async throws
}

/// Thrown by a source's `init` when an option is present and well-typed but unusable (a malformed URL, a
/// negative limit).
public struct SourceOptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The feeds.json key of the offending option.
    public var key: String
    /// What is wrong with it and how to fix it.
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "\"\(key)\": \(message)" }
}

/// What `tributary sources` and the JSON Schema say about an adapter.
public struct SourceDocumentation: Sendable, Hashable {
    /// One sentence: what the adapter reads.
    public var summary: String
    /// The adapter's own options (the common keys `id`, `kind`, `title`, `enabled`, `include`, `exclude`,
    /// `maxItems` and `timeout` are documented once, for all).
    public var options: [Option]
    /// An example feeds.json entry, as JSON text.
    public var example: String
    /// Sets of options of which an entry needs at least one complete set, when no single option is required on
    /// its own (e.g. `[["url"], ["simulate"]]`: a URL or a simulator).
    public var requiredAlternatives: [[String]]

    public init(summary: String, options: [Option], example: String, requiredAlternatives: [[String]] = []) {
        self.summary = summary
        self.options = options
        self.example = example
        self.requiredAlternatives = requiredAlternatives
    }

    /// One option of an adapter.
    public struct Option: Sendable, Hashable {
        public enum ValueType: String, Sendable, Hashable {
            case string, integer, number, boolean, duration, stringArray = "string[]", object
        }

        public var name: String
        public var type: ValueType
        public var isRequired: Bool
        /// The default, as feeds.json would spell it, when the option is optional.
        public var defaultValue: String?
        public var help: String
        /// A short title for editors (the JSON Schema `title`); the name when `nil`.
        public var title: String?
        /// The only values a string option takes (the JSON Schema `enum`); any value when empty.
        public var allowedValues: [String]
        /// Typical values, as feeds.json would spell them (the JSON Schema `examples`).
        public var examples: [String]
        /// The members of an `object` option. An `object` option without members is a map of strings (such as
        /// an environment).
        public var properties: [Option]

        public init(
            _ name: String,
            _ type: ValueType,
            required: Bool = false,
            default defaultValue: String? = nil,
            help: String,
            title: String? = nil,
            allowedValues: [String] = [],
            examples: [String] = [],
            properties: [Option] = []
        ) {
            self.name = name
            self.type = type
            self.isRequired = required
            self.defaultValue = defaultValue
            self.help = help
            self.title = title
            self.allowedValues = allowedValues
            self.examples = examples
            self.properties = properties
        }
    }
}
