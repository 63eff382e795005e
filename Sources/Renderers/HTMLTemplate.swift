public import Foundation
public import TributaryCore

/// A Mustache template for the HTML digest, checked against the digest's keys when it is loaded.
///
/// The built-in look (``builtIn()``) is such a template, shipped as `Templates/digest.html.mustache` in the
/// Renderers resources; copy it to start your own. A template sees the values docs/templates.md lists: the digest's
/// title, counts and times, `days` with their `entries`, and `sources` for the status table. `{{key}}` is always
/// HTML-escaped; triple braces, `{{&key}}`, pragmas and partials are refused, links only ever hold http, https or
/// mailto URLs, and every string is free of control characters, so a template cannot let a feed inject markup.
public struct HTMLTemplate: Sendable {
    /// How messages name the template: the path as the user gave it.
    public let file: String
    private let engine: MustacheEngine

    /// Parses and checks a template.
    /// - Parameters:
    ///   - text: the template.
    ///   - file: how messages name it, e.g. `digest.mustache`.
    /// - Throws: ``RenderError`` naming the file, the line and the problem, for example
    ///   `digest.mustache:12: unknown key 'titel'; did you mean 'title'? (known here: ...)`.
    public init(text: String, file: String) throws(RenderError) {
        try TemplateChecker(file: file).check(text)
        do {
            engine = try MustacheEngine(text)
        } catch {
            throw RenderError(
                format: .html,
                reason: .template(
                    file: file,
                    line: error.line,
                    detail: "not a valid Mustache template: \(error.detail)"
                )
            )
        }
        self.file = file
    }

    /// Reads, parses and checks the template in a file.
    /// - Parameters:
    ///   - url: the template file.
    ///   - displayPath: how messages name it; the URL's relative path when `nil`.
    /// - Throws: ``RenderError`` when the file cannot be read as UTF-8 or the template is not valid.
    public init(contentsOf url: URL, displayPath: String? = nil) throws(RenderError) {
        let name = displayPath ?? url.relativePath
        var isDirectory: ObjCBool = false
        let problem: String?
        if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            problem =
                "no such file; check the path (relative to the directory holding feeds.json), or leave the template out for the built-in look"
        } else if isDirectory.boolValue {
            problem = "it is a directory; name the template file"
        } else if !FileManager.default.isReadableFile(atPath: url.path) {
            problem = "not readable (permission denied)"
        } else {
            problem = nil
        }
        if let problem {
            throw RenderError(format: .html, reason: .template(file: name, line: nil, detail: problem))
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw RenderError(format: .html, reason: .template(file: name, line: nil, detail: "could not be read"))
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw RenderError(
                format: .html,
                reason: .template(file: name, line: nil, detail: "not UTF-8 text; save it as UTF-8")
            )
        }
        try self.init(text: text, file: name)
    }

    /// The built-in template, `digest.html.mustache` in the Renderers resources.
    /// - Throws: ``RenderError`` when the resource is missing (an incomplete installation).
    public static func builtIn() throws(RenderError) -> HTMLTemplate {
        try builtInTemplate.get()
    }

    /// Where the built-in template is, to copy as the start of your own; `nil` when the resources are missing.
    ///
    /// It looks in the `Tributary_Renderers.resources` folder SwiftPM puts beside the executable, then in the
    /// source tree it was built from. It does not use SwiftPM's `Bundle.module`, which stops the process when
    /// neither is there (a binary copied away from its build): this way the digest fails with a message instead.
    public static var builtInURL: URL? {
        let relativePath = "Templates/digest.html.mustache"
        let executableDirectory = Bundle.main.bundleURL
        let candidates = [
            executableDirectory.appendingPathComponent("Tributary_Renderers.resources").appendingPathComponent(
                relativePath
            ),
            // This file is Sources/Renderers/HTMLTemplate.swift; the template is Sources/Renderers/Templates/.
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(relativePath),
        ]
        return candidates.first { FileManager.default.isReadableFile(atPath: $0.path) }
    }

    /// Draws `digest` through the template.
    public func render(_ digest: Digest) -> String {
        engine.render(HTMLTemplateContext.make(for: digest))
    }

    /// Whether the template can be drawn a part at a time, the digest's entries a batch at a time as a run reads
    /// them back from its store (memory then stays flat in the number of items). The built-in template can; a
    /// template that names `entries` outside one `{{#entries}}` section directly inside a top-level `{{#days}}`, or
    /// that lists an object's members (`enumerated`, `sorted`), is drawn whole.
    public var drawsInParts: Bool { engine.parts != nil }

    /// The template ready to draw `outline` a part at a time; `nil` when it cannot (``drawsInParts``).
    func drawing(for outline: DigestOutline) -> PartDrawing? {
        engine.parts.map { PartDrawing(parts: $0, outline: outline) }
    }

    /// A template's parts with the values of one digest's outline: what ``HTMLRenderer`` draws a digest with, a part
    /// at a time, writing exactly what the whole template writes.
    struct PartDrawing: Sendable {
        let parts: MustacheEngine.Parts
        /// The digest's object, its days' entries empty.
        let digest: TemplateData
        let days: [TemplateData]
        /// How many entries come before each day, and each day's count.
        let dayStarts: [Int]
        let dayCounts: [Int]
        let language: String

        init(parts: MustacheEngine.Parts, outline: DigestOutline) {
            self.parts = parts
            digest = HTMLTemplateContext.make(for: outline)
            if case .object(let values) = digest, case .list(let days) = values["days"] {
                self.days = days
            } else {
                days = []
            }
            dayCounts = outline.days.map(\.items.count)
            var start = 0
            dayStarts = dayCounts.map { count in
                defer { start += count }
                return start
            }
            language = outline.language
        }

        func writeStart(into output: inout [UInt8]) {
            MustacheEngine.render(parts.beforeDays, stack: [digest], position: nil, into: &output)
        }

        func writeStart(ofDay index: Int, into output: inout [UInt8]) {
            draw(parts.dayStart, ofDay: index, into: &output)
        }

        /// Draws `entries`, of one day, after `written` entries of the digest.
        func write(_ entries: [Digest.Entry], after written: Int, into output: inout [UInt8]) {
            guard !entries.isEmpty else { return }
            let day = self.day(holding: written)
            var stack = [digest, days[day], .flag(false)]
            for (offset, entry) in entries.enumerated() {
                let index = written + offset - dayStarts[day]
                stack[2] = HTMLTemplateContext.entry(for: entry, digestLanguage: language)
                let place = TemplateData.position(first: index == 0, last: index == dayCounts[day] - 1, index: index)
                MustacheEngine.render(parts.entry, stack: stack, position: place, into: &output)
            }
        }

        func writeEnd(ofDay index: Int, into output: inout [UInt8]) {
            draw(parts.dayEnd, ofDay: index, into: &output)
        }

        func writeEnd(into output: inout [UInt8]) {
            MustacheEngine.render(parts.afterDays, stack: [digest], position: nil, into: &output)
        }

        /// Draws a day's part inside the day, at the day's place in the list of days.
        private func draw(_ nodes: [MustacheEngine.Node], ofDay index: Int, into output: inout [UInt8]) {
            let place = TemplateData.position(first: index == 0, last: index == days.count - 1, index: index)
            MustacheEngine.render(nodes, stack: [digest, days[index]], position: place, into: &output)
        }

        /// The day of entry `written` of the digest: the last to start at or before it (a day without entries starts
        /// where the next one does).
        private func day(holding written: Int) -> Int {
            var low = 0
            var high = dayStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if dayStarts[middle] <= written { low = middle } else { high = middle - 1 }
            }
            return low
        }
    }

    // MARK: - Private

    private static let builtInTemplate: Result<HTMLTemplate, RenderError> = {
        guard let url = builtInURL else {
            return .failure(
                RenderError(
                    format: .html,
                    reason: .template(
                        file: "digest.html.mustache",
                        line: nil,
                        detail:
                            "the built-in template is missing: copy the Tributary_Renderers.resources folder from the build directory (.build/release) beside the tributary binary"
                    )
                )
            )
        }
        return Result { () throws(RenderError) in
            try HTMLTemplate(contentsOf: url, displayPath: "digest.html.mustache (built in)")
        }
    }()
}
