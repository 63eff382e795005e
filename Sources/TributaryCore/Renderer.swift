/// The output formats of a digest.
public enum OutputFormat: String, CaseIterable, Sendable, Hashable {
    case html
    case markdown
    case text
    case json

    /// The usual file extension for the format.
    public var fileExtension: String {
        switch self {
        case .html: "html"
        case .markdown: "md"
        case .text: "txt"
        case .json: "json"
        }
    }
}

/// Draws a ``Digest``. Renderers are pure and deterministic: their output depends only on the digest (its time zone,
/// its "generated at" time, its order), never on the clock or the environment, and they hold no formatting logic
/// beyond their own syntax and escaping: every formatting decision is made by ``DigestBuilder``.
public protocol Renderer: Sendable {
    /// The format this renderer produces.
    static var format: OutputFormat { get }

    /// Renders the digest.
    /// - Throws: ``RenderError`` if the digest cannot be drawn.
    func render(_ digest: Digest) throws -> String
}

/// A renderer that draws a digest a part at a time: its start, each day's start, the day's entries in batches, the
/// day's end, the digest's end. A run whose items are in a store reads them back a batch at a time and writes each
/// part as it is drawn, so neither the items nor the output are ever whole in memory.
///
/// Drawing every part of a whole ``Digest`` in order is ``Renderer/render(_:)``: the default implementation does
/// exactly that, so the two outputs cannot differ.
public protocol StreamingRenderer: Renderer {
    /// Whether this renderer, as it is set up, draws in parts; one that cannot (an HTML template that must be drawn
    /// whole) is given the whole ``Digest`` through ``Renderer/render(_:)`` instead. The default is `true`.
    var drawsInParts: Bool { get }
    /// The renderer ready to draw `digest`'s parts (a layout that depends on every entry, say); drawing starts
    /// with it. The default is the renderer itself.
    func prepared(for digest: DigestOutline) -> Self
    /// Draws what comes before the first day.
    func writeStart(of digest: DigestOutline, into output: inout [UInt8]) throws
    /// Draws what comes before a day's entries; `index` is the day's place in ``DigestOutline/days``.
    func writeStart(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) throws
    /// Draws entries of the current day; `written` is how many entries of the whole digest came before them.
    func write(_ entries: [Digest.Entry], after written: Int, into output: inout [UInt8]) throws
    /// Draws what comes after a day's entries.
    func writeEnd(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) throws
    /// Draws what comes after the last day.
    func writeEnd(of digest: DigestOutline, into output: inout [UInt8]) throws
}

extension StreamingRenderer {
    public var drawsInParts: Bool { true }

    public func prepared(for digest: DigestOutline) -> Self { self }

    /// Renders the whole digest by drawing each of its parts in order.
    public func render(_ digest: Digest) throws -> String {
        try prepared(for: digest.outline).renderParts(of: digest)
    }

    /// Draws every part of `digest` in order with this renderer as it is (already prepared).
    public func renderParts(of digest: Digest) throws -> String {
        var drawing = try DigestDrawing(self, outline: digest.outline)
        for (index, day) in digest.days.enumerated() { try drawing.draw(day.entries, inDay: index) }
        try drawing.finish()
        return String(decoding: drawing.output, as: UTF8.self)
    }
}

/// Draws a digest's parts in order with a ``StreamingRenderer``: its start, then entries as they come, each day
/// started when its first entries arrive (and the day before it ended), then the end. Entries may come a whole day
/// or a batch at a time; the parts drawn so far are in ``output``, which the caller may write out and empty.
public struct DigestDrawing<Drawer: StreamingRenderer> {
    private let renderer: Drawer
    private let outline: DigestOutline
    /// What has been drawn and not yet taken.
    public var output: [UInt8] = []
    private var written = 0
    private var currentDay = -1

    /// Starts drawing `outline` (its start is in ``output``) with `renderer`, already prepared for it.
    public init(_ renderer: Drawer, outline: DigestOutline) throws {
        self.renderer = renderer
        self.outline = outline
        try renderer.writeStart(of: outline, into: &output)
    }

    /// Draws entries of day `day` (an index into the outline's days), at or after the current day.
    public mutating func draw(_ entries: [Digest.Entry], inDay day: Int) throws {
        try enter(day)
        try renderer.write(entries, after: written, into: &output)
        written += entries.count
    }

    /// Draws the days not reached yet, the end of the last day and the digest's end.
    public mutating func finish() throws {
        try enter(outline.days.count - 1)
        if currentDay >= 0 { try renderer.writeEnd(of: outline.days[currentDay], at: currentDay, into: &output) }
        try renderer.writeEnd(of: outline, into: &output)
    }

    private mutating func enter(_ day: Int) throws {
        while currentDay < day {
            if currentDay >= 0 { try renderer.writeEnd(of: outline.days[currentDay], at: currentDay, into: &output) }
            currentDay += 1
            try renderer.writeStart(of: outline.days[currentDay], at: currentDay, into: &output)
        }
    }
}

/// Why a renderer could not draw a digest.
public struct RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        case encoding(String)
        case template(file: String, line: Int?, detail: String)
    }

    public var format: OutputFormat
    public var reason: Reason

    public init(format: OutputFormat, reason: Reason) {
        self.format = format
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .encoding(let detail): "\(format.rawValue) renderer: \(detail)"
        case .template(let file, let line, let detail): "\(file)\(line.map { ":\($0)" } ?? ""): \(detail)"
        }
    }
}
