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
